// The hand-off from backfill to live mode (engine/README.md, Backfill): `positions`, the owner-first table the
// reads and the live fold use, is built from the token-first working table by sorted runs (walletFirstRuns.ts),
// as Erigon's ETL does: collect (the working table read in key order into run files, each sorted wallet first),
// then in one transaction the working table is emptied and the record says the runs are loading (so the pages it
// frees are reused by the load), then load (the runs merged and put in key order, appended when `positions` held
// nothing), and the backfill record is removed. Killed while collecting, the working table is whole and the next
// hand-off collects again; killed while loading, the next one loads the same runs again (a table loaded by
// appending is emptied first; plain puts of the same bytes are idempotent). Nothing folds until it is done.
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HANDOFF_COMMIT_WRITES, HANDOFF_MERGE_BYTES, HANDOFF_RUN_BYTES, HANDOFF_SCAN_BYTES } from '../limits.js';
import { BACKFILL_KEY, encodeBackfillRecord, type BackfillRecord } from '../state/backfillRecord.js';
import type { StateStore } from '../state/openStateStore.js';
import { writePositionKey } from '../state/stateKeys.js';
import { assert } from '../assert.js';
import { createRunCollector, mergeRunFiles } from './walletFirstRuns.js';

function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface HandOffResult {
  positions: number;
  seconds: number;
  /** Of them: reading the working table into runs (the rest loads the runs into `positions`). */
  collectSeconds: number;
  /** Sorted runs the working table was cut into. */
  runFiles: number;
}

export interface HandOffOptions {
  stateDir: string;
  /**
   * Releases the state map (no transaction open): the working table's pages read so far stop being resident.
   * `readAhead`: the map reads ahead until the next release (for a scan of the whole table).
   */
  release: (readAhead?: boolean) => Promise<void>;
  runBytes?: number;
  scanBytes?: number;
  commitWrites?: number;
}

/** Where a hand-off keeps its run files. */
export const handOffRunDir = (stateDir: string) => join(stateDir, 'handoff');
const runPath = (runDir: string, run: number) => join(runDir, `run-${run}.bin`);

/**
 * Collect: the working table into sorted run files, then the switch to loading. Answers the record as it now
 * stands (`loading` the number of runs).
 */
export async function collectRuns(
  store: StateStore,
  record: BackfillRecord,
  options: HandOffOptions,
): Promise<BackfillRecord> {
  assert(record.loading < 0, 'hand-off: runs are collected once');
  const runBytes = options.runBytes ?? HANDOFF_RUN_BYTES;
  const scanBytes = options.scanBytes ?? HANDOFF_SCAN_BYTES;
  const runDir = handOffRunDir(options.stateDir);
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  // The fold's resident pages go first: the scans below map the working table's. They read ahead: the table's pages
  // lie all over the file, but a stretch of its keys was written by neighbouring commits, so near one another. Read
  // a page at a time, the collect of the 10M demo faulted in 157,000 pages one by one, 61 µs each from this
  // machine's disk (15.8 s, 6.0 with the file cached); reading ahead, 433 (8.2 s), the process's peak RSS 617 MiB.
  await options.release(true);
  const collector = createRunCollector();
  let runs = 0;
  let entries = 0;
  let after: Buffer | null = null;
  // Scans of scanBytes, each resuming after the last key read, with the map released after each; a run is written
  // once it holds runBytes, and at the end.
  for (let done = false; !done; ) {
    done = true;
    const range: { start?: Buffer; exclusiveStart?: boolean } = after ? { start: after, exclusiveStart: true } : {};
    const scanEnd = collector.bytes() + scanBytes;
    for (const { key, value } of store.dbs.backfillPositions.getRange(range)) {
      collector.add(key.readUInt32BE(4), key.readUInt32BE(0), value);
      if (collector.bytes() >= Math.min(runBytes, scanEnd)) {
        after = Buffer.from(key);
        done = false;
        break;
      }
    }
    if (collector.count() > 0 && (done || collector.bytes() >= runBytes)) {
      entries += collector.count();
      collector.writeSorted(runPath(runDir, runs++));
      assert(collector.count() === 0, 'hand-off: a run written empties the collector');
    }
    await options.release(true);
  }
  // The last scan ends the last run: every position read is in a run file, and each run holds one at least.
  assert(collector.count() === 0 && entries >= runs, 'hand-off: the runs hold every position collected');
  // The runs are the only copy of the positions once the working table is emptied: on disk first.
  syncDirectory(runDir);
  const loading = { ...record, loading: runs, entries };
  store.env.transactionSync(() => {
    store.dbs.backfillPositions.clearSync();
    store.dbs.meta.putSync(BACKFILL_KEY, encodeBackfillRecord(loading));
  });
  // LMDB reuses a freed page only once no reader's snapshot predates its freeing: the wallet workers' read
  // transactions end with the release, so the load writes `positions` into the working table's pages.
  await options.release();
  return loading;
}

/** Load: the runs merged into `positions`, in its key order, then the backfill record removed. */
export function loadRuns(store: StateStore, record: BackfillRecord, options: HandOffOptions): number {
  assert(record.loading >= 0, 'hand-off: runs are loaded once collected');
  const commitWrites = options.commitWrites ?? HANDOFF_COMMIT_WRITES;
  const runDir = handOffRunDir(options.stateDir);
  const paths = Array.from({ length: record.loading }, (_, run) => runPath(runDir, run));
  const found = new Set(readdirSync(runDir).map((name) => join(runDir, name)));
  for (const path of paths) assert(found.has(path), `hand-off: the run file ${path} is there to load`);
  // What a killed load appended is emptied first: appends go after the table's last key.
  if (record.positionsEmpty) store.env.transactionSync(() => store.dbs.positions.clearSync());
  const putOptions = record.positionsEmpty ? { append: true } : {};
  const merged = mergeRunFiles(paths, HANDOFF_MERGE_BYTES / Math.max(1, paths.length));
  const key = Buffer.alloc(8);
  let positions = 0;
  try {
    for (let done = false; !done; ) {
      store.env.transactionSync(() => {
        for (let i = 0; i < commitWrites; i++) {
          const next = merged.next();
          if (next.done) {
            done = true;
            return;
          }
          const { wallet, token, value } = next.value;
          // The runs hold what collect counted: a load never puts more (a run file read twice, a merge's repeat).
          assert(positions < record.entries, 'hand-off: a load puts no more positions than were collected');
          // One key buffer for all: LMDB copies the key.
          store.dbs.positions.putSync(writePositionKey(key, wallet, token), value, putOptions);
          positions++;
        }
      });
    }
  } finally {
    // The runs' files are closed whatever stopped the load.
    merged.return(undefined);
  }
  assert(positions === record.entries, `hand-off: the runs hold the ${record.entries} positions collected`);
  store.env.transactionSync(() => store.dbs.meta.removeSync(BACKFILL_KEY));
  rmSync(runDir, { recursive: true, force: true });
  return positions;
}

export async function handOffPositions(
  store: StateStore,
  record: BackfillRecord,
  options: HandOffOptions,
): Promise<HandOffResult> {
  const secondsSince = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
  const started = process.hrtime.bigint();
  const loading = record.loading < 0 ? await collectRuns(store, record, options) : record;
  // Collected now or by a hand-off killed while loading: the record counts the runs and what they hold.
  assert(loading.loading >= 0 && loading.entries >= 0, 'hand-off: the runs to load are counted');
  const collectSeconds = secondsSince(started);
  const positions = loadRuns(store, loading, options);
  return { positions, seconds: secondsSince(started), collectSeconds, runFiles: loading.loading };
}
