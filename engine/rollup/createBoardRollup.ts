// Runs the board's rollup (rollupWorker.ts) on one worker thread, one rollup at a time.
import { Piscina } from 'piscina';
import type { BoardInfo } from '../state/boardTables.js';
import { workerOptions } from '../workerOptions.js';
import type { RollupTask } from './rollupWorker.js';

export interface BoardRollup {
  /** Rolls the board up as of the state's cursor: null when the state has folded no block yet. */
  run(): Promise<BoardInfo | null>;
  close(): Promise<void>;
}

export function createBoardRollup(dirs: { stateDir: string; offchainDir: string }): BoardRollup {
  const pool = new Piscina({ ...workerOptions('./rollupWorker', import.meta.url), minThreads: 1, maxThreads: 1, idleTimeout: 60_000 });
  return {
    run: () => pool.run({ stateDir: dirs.stateDir, offchainDir: dirs.offchainDir } satisfies RollupTask) as Promise<BoardInfo | null>,
    close: () => pool.destroy(),
  };
}
