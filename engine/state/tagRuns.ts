// The wallet-tag runs (docs/design.md 6), kept under their number (the UTC day their window ends on), newest last. The
// latest run's number is also kept in `meta`: the server reads it on every request, and the range read that finds
// the last key cost an iterator each time (about a third of what a cached answer allocated; kept past scavenges, it
// made them take 10 ms). Beside it: a SHA-256 of the latest run's bytes (what /v1/health's answers checksum covers,
// and how a publisher tells a replica's run from its own), and the metadata the run was made with
// (walletTagRun.ts remakes the day's run when the rounds it knew of changed).
import { createHash } from 'node:crypto';
import type { StateStore } from './openStateStore.js';
import { decodeValue, encodeValue } from './stateCodec.js';

export interface TagRunTag {
  kind: string;
  text: string;
  facts: Record<string, number | string>;
  /** ISO 8601: the wallet's first fill in the run's window. */
  since: string;
}

export interface TagRun {
  run: number;
  rulesVersion: number;
  /** ISO 8601: the window is [windowStart, windowEnd); computedAt is windowEnd, the run's time. */
  windowStart: string;
  windowEnd: string;
  computedAt: string;
  count: number;
  tags: Record<string, TagRunTag>;
}

const runKey = (run: number) => {
  const key = Buffer.alloc(4);
  key.writeUInt32BE(run, 0);
  return key;
};

const LATEST_RUN_KEY = 'latestTagRun';
const LATEST_SHA_KEY = 'latestTagRunSha';
const INPUTS_KEY = 'tagRunInputs';

/** What a run was made from besides the log: the metadata's digest, and a digest of the rounds it names. */
export interface TagRunInputs {
  metadata: string;
  rounds: string;
}

export function putTagRun(store: StateStore, run: TagRun, inputs: TagRunInputs | null): void {
  putTagRunBytes(store, run.run, encodeValue(run), inputs);
}

/** Stores a run as encoded (a replica stores its publisher's bytes as they came). */
export function putTagRunBytes(store: StateStore, run: number, bytes: Buffer, inputs: TagRunInputs | null): void {
  store.env.transactionSync(() => {
    const latest = Math.max(run, lastRunKey(store) ?? 0);
    void store.dbs.tagRuns.put(runKey(run), bytes);
    void store.dbs.meta.put(LATEST_RUN_KEY, runKey(latest));
    if (run !== latest) return;
    void store.dbs.meta.put(LATEST_SHA_KEY, encodeValue(tagRunSha(bytes)));
    if (inputs) void store.dbs.meta.put(INPUTS_KEY, encodeValue(inputs));
    else void store.dbs.meta.remove(INPUTS_KEY);
  });
}

const tagRunSha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The latest run's number and bytes, as stored. */
export function readLatestTagRunBytes(store: StateStore): { run: number; bytes: Buffer } | null {
  for (const { key, value } of store.dbs.tagRuns.getRange({ reverse: true, limit: 1 }))
    return { run: (key as Buffer).readUInt32BE(0), bytes: value };
  return null;
}

/** The SHA-256 of the latest run's bytes, null before the first (a state from before it was kept: hashed here). */
export function readLatestTagRunSha(store: StateStore): string | null {
  const kept = store.dbs.meta.getBinary(LATEST_SHA_KEY);
  if (kept !== undefined) return decodeValue<string>(kept);
  const latest = readLatestTagRunBytes(store);
  return latest && tagRunSha(latest.bytes);
}

/** Records that the latest run's inputs are `inputs` (metadata changed, the rounds it names did not). */
export function writeTagRunInputs(store: StateStore, inputs: TagRunInputs): void {
  store.env.transactionSync(() => void store.dbs.meta.put(INPUTS_KEY, encodeValue(inputs)));
}

/** The inputs the latest run was made from; null for a run received from a publisher or from before they were kept. */
export function readTagRunInputs(store: StateStore): TagRunInputs | null {
  const bytes = store.dbs.meta.getBinary(INPUTS_KEY);
  return bytes ? decodeValue<TagRunInputs>(bytes) : null;
}

/** The number of the last run in the table (a range read). */
function lastRunKey(store: StateStore): number | null {
  for (const key of store.dbs.tagRuns.getKeys({ reverse: true, limit: 1 })) return (key as Buffer).readUInt32BE(0);
  return null;
}

export function readLatestTagRun(store: StateStore): TagRun | null {
  const latest = readLatestTagRunBytes(store);
  return latest && decodeValue<TagRun>(latest.bytes);
}

/** The latest run's number alone (nothing decoded), null before the first. */
export function readLatestTagRunNumber(store: StateStore): number | null {
  const latest = store.dbs.meta.getBinary(LATEST_RUN_KEY);
  // A state whose runs were written before the key was kept: the table's last key.
  return latest ? latest.readUInt32BE(0) : lastRunKey(store);
}
