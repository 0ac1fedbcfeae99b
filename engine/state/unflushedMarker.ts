// A folding process commits state without flushing it to disk (LMDB's NOSYNC): the page cache holds every
// commit, so a crashed or killed process loses nothing, and only a machine that goes down can leave the state
// file torn. The state is derived from the log, so that case is handled by rebuilding it: a marker naming the
// boot is written (and flushed) before the first unflushed commit and removed after the final flush. A marker
// of another boot means the machine went down mid-fold; the state is then discarded and folded again.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fsyncDirectory } from '../fsyncDirectory.js';
import { assert } from '../assert.js';

const MARKER = 'unflushed';
const STATE_FILES = ['data.mdb', 'lock.mdb'];

/** This boot's id (Linux); null where there is none, and commits are then flushed as usual. */
export function currentBootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/**
 * Before a folding process opens the state: a marker left by another boot discards the state files (returns
 * true then). Then this boot's marker is written.
 */
export function markUnflushed(dir: string, boot: string): boolean {
  // currentBootId's answer: null (and no marker) when the machine has none.
  assert(boot.length > 0, 'a marker names a boot');
  const marked = markedBoot(dir);
  const torn = marked !== null && marked !== boot;
  if (torn) for (const file of STATE_FILES) rmSync(join(dir, file), { force: true });
  const fd = openSync(join(dir, MARKER), 'w');
  try {
    writeSync(fd, boot);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  fsyncDirectory(dir);
  assert(markedBoot(dir) === boot, 'the marker names this boot');
  return torn;
}

/** True when a marker of another boot is there: the state may be torn and must be folded again before use. */
export function isMarkedByAnotherBoot(dir: string): boolean {
  const marked = markedBoot(dir);
  return marked !== null && marked !== currentBootId();
}

/** The boot a marker names, null without one. */
function markedBoot(dir: string): string | null {
  const marker = join(dir, MARKER);
  return existsSync(marker) ? readFileSync(marker, 'utf8') : null;
}

/** After the final flush. */
export function clearUnflushed(dir: string): void {
  unlinkSync(join(dir, MARKER));
  fsyncDirectory(dir);
  assert(markedBoot(dir) === null, 'a cleared state has no marker');
}
