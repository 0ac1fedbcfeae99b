// The log's writer lock (engine/log/eventLog.ts): `LOCK` holds the writer's pid; one writer per directory.
import { closeSync, openSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../isProcessAlive.js';
import { EventLogError, LogLockedError } from './eventLogError.js';
import { writeFully } from '../writeFully.js';

const LOCK_FILE = 'LOCK';

/** The live process holding the log's writer lock (a fold, an ingest, a rewind), or null when none does. */
export function logWriterPid(dir: string): number | null {
  const pid = readLockPid(join(dir, LOCK_FILE));
  return pid !== null && isProcessAlive(pid) ? pid : null;
}

/**
 * Takes `<dir>/LOCK` (O_EXCL) for this process, replacing a lock whose process is gone. Two processes
 * replacing the same stale lock at the same instant could both win; a stale lock plus a simultaneous
 * double start is rare enough for tally to accept.
 */
export function acquireLock(dir: string): string {
  const lockPath = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      try {
        writeFully(fd, Buffer.from(String(process.pid)), 0);
      } finally {
        closeSync(fd);
      }
      return lockPath;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readLockPid(lockPath);
    if (holder !== null && isProcessAlive(holder)) {
      throw new LogLockedError(
        `log is locked by process ${holder}, which is writing ${dir} (an ingest, tally run or a rewind): let it finish or stop it first`,
      );
    }
    // Stale, or empty because its writer died between creating and filling it.
    rmSync(lockPath, { force: true });
  }
  throw new EventLogError(`could not take ${lockPath}: it keeps reappearing`);
}

export function readLockPid(lockPath: string): number | null {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Gives the lock up, if this process still holds it. */
export function releaseLock(lockPath: string): void {
  if (readLockPid(lockPath) === process.pid) unlinkSync(lockPath);
}
