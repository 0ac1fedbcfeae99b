// The board's rollup (and the day's wallet tags) in a worker thread (piscina), so that a process serving the API while
// it folds (`tally run`) keeps answering during a rollup. The caller starts one only while the fold is at rest, so the
// rollup reads one block's state throughout; its commits reach the caller's readers at their next read transaction.
import { openEventLog } from '../log/eventLog.js';
import { openOffchainStore, type OffchainStore } from '../offchain/openOffchainStore.js';
import { openStateStore, type StateStore } from '../state/openStateStore.js';
import { rollupBoard, type RolledBoard } from './rollupBoard.js';
import { runWalletTags } from '../tags/walletTagRun.js';
import { readBackfillRecord } from '../state/backfillRecord.js';
import { lowerThisThreadsPriority } from '../lowerThreadPriority.js';

export interface RollupTask {
  stateDir: string;
  offchainDir: string;
  logDir: string;
  /** False on a replica: its runs are its publisher's, as the stream brings them. */
  tagRuns: boolean;
  /** True when the process also serves the API: the rollup's thread then gives way to the serving threads. */
  background: boolean;
}

const opened = new Map<string, { store: StateStore; offchain: OffchainStore }>();

/** What a rollup made: the board (null before any block), and the day's tag run when one was due. */
export interface RollupOutcome {
  board: RolledBoard | null;
  tags: { run: number; count: number } | null;
}

export default function rollupTask({ stateDir, offchainDir, logDir, tagRuns, background }: RollupTask): RollupOutcome {
  let stores = opened.get(stateDir);
  if (!stores) {
    if (background) lowerThisThreadsPriority();
    stores = { store: openStateStore({ dir: stateDir }), offchain: openOffchainStore({ dir: offchainDir }) };
    opened.set(stateDir, stores);
  }
  // What the fold committed since this thread last read.
  stores.store.env.resetReadTxn();
  stores.offchain.env.resetReadTxn();
  // A backfilling state's positions are stale until its hand-off: the board waits for it.
  const board = readBackfillRecord(stores.store) === null ? rollupBoard(stores.store, stores.offchain) : null;
  // The day's wallet tags ride along: the same rest of the fold, the same thread.
  // A read-only log sees the log as it was when opened: opened for each run.
  const run = tagRuns
    ? runWalletTags(stores.store, stores.offchain, () => openEventLog({ dir: logDir, readOnly: true }))
    : null;
  return { board, tags: run && { run: run.run, count: run.count } };
}
