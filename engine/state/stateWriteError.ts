// A commit LMDB could not write (a full disk, most often). Nothing folded is lost: the transaction is dropped
// whole, the log still holds the batch, and the next fold resumes from the last commit. The command line
// prints it as one line naming the directory.
import { statfsSync } from 'node:fs';
import { EnvironmentError } from '../environmentError.js';

/** Below this much free space a failed commit is put down to a full disk. */
const FULL_DISK_BYTES = 64 * 1024 * 1024;

export class StateWriteError extends EnvironmentError {
  override name = 'StateWriteError';
}

function freeBytes(dir: string): number | null {
  try {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

/** The error to throw for a commit that failed: a StateWriteError for LMDB's commit failures, else `error`. */
export function describeCommitFailure(error: unknown, dir: string): unknown {
  if (!(error instanceof Error) || !('commitError' in error)) return error;
  // lmdb-js rejects the commit with an error holding a second, rejected promise with the cause; left unhandled,
  // that promise would end the process.
  const cause = (error as { commitError: unknown }).commitError;
  if (cause instanceof Promise) cause.catch(() => undefined);
  const free = freeBytes(dir);
  const reason =
    free !== null && free < FULL_DISK_BYTES
      ? `the disk holding it is full (${free} bytes free)`
      : 'LMDB could not write it';
  return new StateWriteError(
    `cannot commit the state in ${dir}: ${reason}. Nothing folded is lost: free some space and run the command again, it resumes from the last commit`,
    { cause: error },
  );
}
