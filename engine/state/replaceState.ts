// Moves a state folded elsewhere into the state directory, for `tally rewind` (stateReplacement.ts says how the
// processes mapping the old state follow). The old state is marked first, then moved aside (the caller removes it;
// a process mapping it keeps its pages until it lets go), then the new one moved in. Between the two renames there
// is no state directory: a crash there leaves the log whole, which the next fold folds again.
import { assert, AssertionFailure } from '../assert.js';
import { existsSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { fsyncDirectory } from '../fsyncDirectory.js';
import { openStateStore } from './openStateStore.js';
import { REPLACED_BY_KEY, stateFileId } from './stateReplacement.js';

/** Writes (or with null removes) the mark naming the file that replaces the state in `dir`. */
async function markReplaced(dir: string, by: string | null): Promise<void> {
  // stateFileId's identity of the file moving in: its device and inode.
  assert(by === null || by.includes(':'), 'a state is marked replaced by a file identity');
  const store = openStateStore({ dir });
  try {
    if (by === null) store.dbs.meta.removeSync(REPLACED_BY_KEY);
    else store.dbs.meta.putSync(REPLACED_BY_KEY, Buffer.from(by, 'latin1'));
  } finally {
    await store.close();
  }
}

/** Moves the state in `next` to `dir` and the state in `dir`, if any, to `aside` (all on one filesystem). */
export async function replaceState(dir: string, next: string, aside: string): Promise<void> {
  const nextId = stateFileId(next);
  if (nextId === null) throw new AssertionFailure(`replaceState: ${next} holds no state`);
  const old = existsSync(dir);
  if (old) {
    await markReplaced(dir, nextId);
    try {
      renameSync(dir, aside);
    } catch (error) {
      await markReplaced(dir, null);
      throw error;
    }
  }
  try {
    renameSync(next, dir);
  } catch (error) {
    if (old) {
      renameSync(aside, dir);
      await markReplaced(dir, null);
    }
    throw error;
  }
  fsyncDirectory(dirname(dir));
  // A rename keeps the file's inode: the mark the old state holds names the state now in place.
  assert(stateFileId(dir) === nextId, 'the state moved in is the file the old one was marked with');
}
