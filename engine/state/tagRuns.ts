// The wallet-tag runs (DESIGN.md 6), kept under their number (the UTC day their window ends on), newest last. The
// latest run's number is also kept in `meta`: the server reads it on every request, and the range read that finds
// the last key cost an iterator each time (about a third of what a cached answer allocated; kept past scavenges, it
// made them take 10 ms).
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

export function putTagRun(store: StateStore, run: TagRun): void {
  store.env.transactionSync(() => {
    const latest = Math.max(run.run, lastRunKey(store) ?? 0);
    void store.dbs.tagRuns.put(runKey(run.run), encodeValue(run));
    void store.dbs.meta.put(LATEST_RUN_KEY, runKey(latest));
  });
}

/** The number of the last run in the table (a range read). */
function lastRunKey(store: StateStore): number | null {
  for (const key of store.dbs.tagRuns.getKeys({ reverse: true, limit: 1 })) return (key as Buffer).readUInt32BE(0);
  return null;
}

export function readLatestTagRun(store: StateStore): TagRun | null {
  for (const { value } of store.dbs.tagRuns.getRange({ reverse: true, limit: 1 })) return decodeValue<TagRun>(value);
  return null;
}

/** The latest run's number alone (nothing decoded), null before the first. */
export function readLatestTagRunNumber(store: StateStore): number | null {
  const latest = store.dbs.meta.getBinary(LATEST_RUN_KEY);
  // A state whose runs were written before the key was kept: the table's last key.
  return latest ? latest.readUInt32BE(0) : lastRunKey(store);
}
