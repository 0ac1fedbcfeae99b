// Whether the state is backfilling (engine/README.md, Backfill), as its meta database records it. While it is, the
// positions folded since `since` are in the token-first working table (`backfillPositions`), not in `positions`:
// the state's owner-first reads are stale until the hand-off (handOffPositions.ts) has built them and removed this
// record.
import { assert } from '../assert.js';
import type { StateStore } from './openStateStore.js';
import { decodeValue, encodeValue } from './stateCodec.js';

export const BACKFILL_KEY = 'backfill';

/** A backfill's target when its source's end was not known (a capture read from a pipe). */
export const UNKNOWN_TARGET = -1;

export interface BackfillRecord {
  /** The last block the state held when the backfill began (-1: none). */
  since: number;
  /** `positions` held nothing then: the hand-off loads it by appending, after emptying what a killed one left. */
  positionsEmpty: boolean;
  /** The block the backfill was aimed at when it began (the source's end or head then), or UNKNOWN_TARGET. */
  target: number;
  /**
   * -1 until the hand-off has collected the working table into sorted run files; then how many, while it loads them
   * into `positions` (the working table is empty by then: the hand-off must be finished before anything folds).
   */
  loading: number;
  /** While loading: the positions the runs hold, all of them (a run file cut short is then found). */
  entries: number;
}

/**
 * The record's fields agree: it began after a block or before any, aims at a block past it (the ingest driver
 * starts a backfill only behind its target) or at none known, and counts entries only once its runs are loading.
 */
const isWellFormed = (record: BackfillRecord): boolean =>
  Number.isSafeInteger(record.since) &&
  record.since >= -1 &&
  (record.target === UNKNOWN_TARGET || record.target > record.since) &&
  record.loading >= -1 &&
  (record.loading === -1 ? record.entries === 0 : record.entries >= 0);

export function encodeBackfillRecord(record: BackfillRecord): Buffer {
  assert(isWellFormed(record), 'a backfill record written is well formed');
  return encodeValue([record.since, record.positionsEmpty, record.target, record.loading, record.entries]);
}

export function decodeBackfillRecord(bytes: Uint8Array): BackfillRecord {
  const [since, positionsEmpty, target, loading, entries] =
    decodeValue<[number, boolean, number, number, number]>(bytes);
  const record = { since, positionsEmpty, target, loading, entries };
  assert(isWellFormed(record), 'a backfill record read is as written');
  return record;
}

/** The state's backfill, or null when it is live. */
export function readBackfillRecord(store: StateStore): BackfillRecord | null {
  const bytes = store.dbs.meta.getBinary(BACKFILL_KEY);
  return bytes ? decodeBackfillRecord(bytes) : null;
}
