import { availableParallelism } from 'node:os';
import { MAX_DEFAULT_WALLET_WORKERS } from '../limits.js';
import { assert } from '../assert.js';

/** Threads of a fold busy besides its wallet workers: the main thread's derive and commit, the capture reader. */
const OTHER_BUSY_THREADS = 2;

/**
 * The wallet workers a fold runs by default: the cores the fold's other busy threads leave, at least one, at most
 * MAX_DEFAULT_WALLET_WORKERS. Any count folds the same bytes (partitions are a function of the wallet alone), so the
 * default may follow the machine.
 */
export function defaultWalletWorkers(cores: number = availableParallelism()): number {
  const workers = Math.max(1, Math.min(MAX_DEFAULT_WALLET_WORKERS, cores - OTHER_BUSY_THREADS));
  // A core count is a whole number (availableParallelism's, or a test's): so is the count of pools made from it.
  assert(
    Number.isInteger(workers) && workers >= 1 && workers <= MAX_DEFAULT_WALLET_WORKERS,
    'a fold runs from one worker to the default most',
  );
  return workers;
}
