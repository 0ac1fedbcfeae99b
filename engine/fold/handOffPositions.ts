// The hand-off from backfill to live mode (engine/README.md, Backfill): `positions`, the owner-first table the
// reads and the live fold use, is built from the token-first working table by sorted runs (walletFirstRuns.ts)
// loaded in key order (appended when it held nothing), then the working table is emptied and the backfill record
// removed in one transaction. Killed part-way, the state is still backfilling, and the next hand-off starts over:
// a table loaded by appending is emptied first, and plain puts of the same bytes are idempotent.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { assert } from '../assert.js';
import { HANDOFF_COMMIT_WRITES, HANDOFF_RUN_BYTES } from '../limits.js';
import { BACKFILL_KEY, type BackfillRecord } from '../state/backfillRecord.js';
import type { StateStore } from '../state/openStateStore.js';
import { positionKey } from '../state/stateKeys.js';
import { createRunCollector, mergeRunFiles, writeRunFile, type RunEntry } from './walletFirstRuns.js';

export interface HandOffResult {
  positions: number;
  seconds: number;
  /** Sorted runs written to files (0: one run held them all in memory). */
  runFiles: number;
}

const keyBytes = (key: string) => Buffer.from(key, 'latin1');

export async function handOffPositions(
  store: StateStore,
  record: BackfillRecord,
  options: {
    stateDir: string;
    /** Releases the state map (no transaction open): the working table's pages read so far stop being resident. */
    release: () => Promise<void>;
    runBytes?: number;
    commitWrites?: number;
  },
): Promise<HandOffResult> {
  const started = process.hrtime.bigint();
  const runBytes = options.runBytes ?? HANDOFF_RUN_BYTES;
  const commitWrites = options.commitWrites ?? HANDOFF_COMMIT_WRITES;
  const runDir = join(options.stateDir, 'handoff');
  rmSync(runDir, { recursive: true, force: true });
  if (record.positionsEmpty) store.env.transactionSync(() => store.dbs.positions.clearSync());

  // Collect: the working table in its key order, a run at a time, each scan resuming after the last key read.
  const collector = createRunCollector();
  const runFiles: string[] = [];
  let lastRun: RunEntry[] | null = null;
  let after: Buffer | null = null;
  for (;;) {
    let done = true;
    for (const { key, value } of store.dbs.backfillPositions.getRange(
      after ? { start: after, exclusiveStart: true } : {},
    )) {
      collector.add(key.readUInt32BE(4), key.readUInt32BE(0), value);
      if (collector.bytes() >= runBytes) {
        after = Buffer.from(key);
        done = false;
        break;
      }
    }
    if (done && runFiles.length === 0) {
      lastRun = collector.sorted();
      break;
    }
    if (collector.count() > 0) {
      mkdirSync(runDir, { recursive: true });
      const path = join(runDir, `run-${runFiles.length}.bin`);
      writeRunFile(path, collector.sorted());
      runFiles.push(path);
    }
    if (done) break;
    await options.release();
  }

  // Load, in positions' key order, a transaction every `commitWrites` puts.
  const entries: Iterable<RunEntry> = lastRun ?? mergeRunFiles(runFiles);
  const putOptions = record.positionsEmpty ? { append: true } : {};
  let positions = 0;
  let chunk: RunEntry[] = [];
  const commit = () =>
    store.env.transactionSync(() => {
      for (const { wallet, token, value } of chunk)
        store.dbs.positions.putSync(keyBytes(positionKey(wallet, token)), value, putOptions);
    });
  for (const entry of entries) {
    chunk.push(entry);
    if (chunk.length >= commitWrites) {
      commit();
      positions += chunk.length;
      chunk = [];
    }
  }
  commit();
  positions += chunk.length;
  rmSync(runDir, { recursive: true, force: true });

  store.env.transactionSync(() => {
    store.dbs.backfillPositions.clearSync();
    store.dbs.meta.removeSync(BACKFILL_KEY);
  });
  assert(
    store.dbs.backfillPositions.getKeysCount({ limit: 1 }) === 0,
    'hand-off: the working table is empty once positions are built',
  );
  return { positions, seconds: Number(process.hrtime.bigint() - started) / 1e9, runFiles: runFiles.length };
}
