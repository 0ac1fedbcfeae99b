// The board's rollup after a fold (engine/rollup), on its worker thread, with one line saying what it built.
// Called once the fold is at rest (no commit in flight), so the rollup reads one block's state throughout.
import type { DataPaths } from '../engine/dataDir.js';
import { openEventLog } from '../engine/log/eventLog.js';
import { LogLockedError } from '../engine/log/eventLogError.js';
import { createBoardRollup, type BoardRollup } from '../engine/rollup/createBoardRollup.js';

export async function rollUpBoard(rollup: BoardRollup, label: string): Promise<void> {
  const started = process.hrtime.bigint();
  const { board, tags } = await rollup.run();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (board?.built) {
    const { info } = board;
    process.stderr.write(
      `${label}: leaderboard rolled up as of block ${info.block}: ${info.wallets} wallets, ${info.results} market results in ${seconds.toFixed(1)} s\n`,
    );
  }
  if (tags) process.stderr.write(`${label}: wallet tags run ${tags.run}: ${tags.count} wallets tagged\n`);
}

/** One rollup of a data directory's state (`paths` as dataPaths gives them). */
export async function rollUpBoardOnce(
  paths: { state: string; offchain: string; log: string },
  label: string,
): Promise<void> {
  const rollup = createBoardRollup({ stateDir: paths.state, offchainDir: paths.offchain, logDir: paths.log });
  try {
    await rollUpBoard(rollup, label);
  } finally {
    await rollup.close();
  }
}

/**
 * A rollup for a command that folded nothing (serve over a state whose board lags it, metadata that changed
 * categories), holding the log's writer lock meanwhile; false when another process holds it: that process
 * folds, and rolls the board up after its own folds.
 */
export async function rollUpBoardUnlessFolding(paths: DataPaths, label: string): Promise<boolean> {
  let log;
  try {
    log = openEventLog({ dir: paths.log });
  } catch (error) {
    if (error instanceof LogLockedError) return false;
    throw error;
  }
  try {
    await rollUpBoardOnce(paths, label);
    return true;
  } finally {
    log.close();
  }
}
