// The wallet-tag runs (docs/design.md 6), kept under their number (the UTC day their window ends on), newest last. The
// latest run's number is also kept in `meta`: the server reads it on every request, and the range read that finds
// the last key cost an iterator each time (about a third of what a cached answer allocated; kept past scavenges, it
// made them take 10 ms). Beside it: a SHA-256 of the latest run's bytes (what /v1/health's answers checksum covers,
// and how a publisher tells a replica's run from its own), and the metadata the run was made with
// (walletTagRun.ts remakes the day's run when the rounds it knew of changed).
import { createHash } from 'node:crypto';
import { assert } from '../assert.js';
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
  // A UTC day's number (walletTagRun's end / DAY), as a u32.
  assert(run >>> 0 === run, 'a tag run is numbered by its day');
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
  // walletTagRun's run: its count is its tags', computed at its window's end. A cold path: one run a day.
  assert(run.count === Object.keys(run.tags).length, 'a tag run counts its tags');
  assert(run.computedAt === run.windowEnd, 'a tag run is computed at its window end');
  putTagRunBytes(store, run.run, encodeValue(run), inputs);
}

/** Stores a run as encoded (a replica stores its publisher's bytes as they came). */
export function putTagRunBytes(store: StateStore, run: number, bytes: Buffer, inputs: TagRunInputs | null): void {
  // encodeValue of a run, here or at the publisher whose bytes a replica stores.
  assert(bytes.length > 0, 'a tag run stored has bytes');
  store.env.transactionSync(() => {
    const latest = Math.max(run, lastRunKey(store) ?? 0);
    // The number kept in meta is the table's largest: it moves up only.
    assert(latest >= (readLatestTagRunNumber(store) ?? 0), 'the latest tag run never goes back');
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
  for (const { key, value } of store.dbs.tagRuns.getRange({ reverse: true, limit: 1 })) {
    assert((key as Buffer).length === 4, 'a tag run is keyed by its u32 number');
    return { run: (key as Buffer).readUInt32BE(0), bytes: value };
  }
  return null;
}

/** The SHA-256 of the latest run's bytes, null before the first (a state from before it was kept: hashed here). */
export function readLatestTagRunSha(store: StateStore): string | null {
  const kept = store.dbs.meta.getBinary(LATEST_SHA_KEY);
  if (kept !== undefined) {
    const sha = decodeValue<string>(kept);
    // tagRunSha's hex digest.
    assert(sha.length === 64, "the latest run's sha256 is 64 hex");
    return sha;
  }
  const latest = readLatestTagRunBytes(store);
  return latest && tagRunSha(latest.bytes);
}

/** Records that the latest run's inputs are `inputs` (metadata changed, the rounds it names did not). */
export function writeTagRunInputs(store: StateStore, inputs: TagRunInputs): void {
  // The inputs of a run the table holds: a run of the day is kept, its inputs rewritten.
  assert(readLatestTagRunNumber(store) !== null, 'inputs are written for a run that exists');
  store.env.transactionSync(() => void store.dbs.meta.put(INPUTS_KEY, encodeValue(inputs)));
}

/** The inputs the latest run was made from; null for a run received from a publisher or from before they were kept. */
export function readTagRunInputs(store: StateStore): TagRunInputs | null {
  const bytes = store.dbs.meta.getBinary(INPUTS_KEY);
  if (!bytes) return null;
  const inputs = decodeValue<TagRunInputs>(bytes);
  assert(typeof inputs.metadata === 'string' && typeof inputs.rounds === 'string', "a run's inputs are two digests");
  return inputs;
}

/** The number of the last run in the table (a range read). */
function lastRunKey(store: StateStore): number | null {
  for (const key of store.dbs.tagRuns.getKeys({ reverse: true, limit: 1 })) {
    assert((key as Buffer).length === 4, 'a tag run is keyed by its u32 number');
    return (key as Buffer).readUInt32BE(0);
  }
  return null;
}

export function readLatestTagRun(store: StateStore): TagRun | null {
  const latest = readLatestTagRunBytes(store);
  if (latest === null) return null;
  const run = decodeValue<TagRun>(latest.bytes);
  // Stored under its own number: here, and by a replica under the number its publisher's chunk names (the run's).
  assert(run.run === latest.run, 'a tag run is stored under its number');
  return run;
}

/** The latest run's number alone (nothing decoded), null before the first. */
export function readLatestTagRunNumber(store: StateStore): number | null {
  const latest = store.dbs.meta.getBinary(LATEST_RUN_KEY);
  assert(latest === undefined || latest.length === 4, "the latest run's number is a u32 key");
  // A state whose runs were written before the key was kept: the table's last key.
  return latest ? latest.readUInt32BE(0) : lastRunKey(store);
}
