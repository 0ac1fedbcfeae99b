// Runs the board's rollup and the wallet tags (rollupWorker.ts) on one worker thread, one rollup at a time.
import { Piscina } from 'piscina';
import { workerOptions } from '../workerOptions.js';
import type { RollupOutcome, RollupTask } from './rollupWorker.js';

export interface BoardRollup {
  /** Rolls the board up as of the state's cursor (rollupBoard), and runs the day's wallet tags when due. */
  run(): Promise<RollupOutcome>;
  close(): Promise<void>;
}

/**
 * `tagRuns` false: the board alone (a replica, whose tag runs come from its publisher). `background`: the process
 * serves the API too, and the rollup (a second or more of CPU over the whole state) gives way to its answers.
 */
export function createBoardRollup(
  dirs: Omit<RollupTask, 'tagRuns' | 'background'>,
  options: { tagRuns?: boolean; background?: boolean } = {},
): BoardRollup {
  const task: RollupTask = { ...dirs, tagRuns: options.tagRuns ?? true, background: options.background ?? false };
  const pool = new Piscina({
    ...workerOptions('engine/rollup/rollupWorker', import.meta.url),
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: 60_000,
  });
  return {
    run: () => pool.run(task) as Promise<RollupOutcome>,
    close: () => pool.destroy(),
  };
}
