// How a process that maps a state learns that `tally rewind` has replaced it (engine/README.md, Data layout). A
// rewind never writes over or truncates a state file others may map (a server, a verify): it folds the rewound
// state in a directory of its own and moves that into the state directory (replaceState.ts). Before the move it
// marks the old state with the identity (device and inode) of the file replacing it. A mapping process reads the
// mark (one get, on each request for a server); once the state directory holds that very file, the mapped state is
// replaced and the process opens the new one. A rewind killed before the move leaves a mark no file matches: read
// and ignored.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { assert } from '../assert.js';

export const REPLACED_BY_KEY = 'replacedBy';

/** The identity of a state directory's data file (device and inode), null while it holds none. */
export function stateFileId(dir: string): string | null {
  const stat = statSync(join(dir, 'data.mdb'), { throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}` : null;
}

/** Whether the state whose meta database is `meta` has since been replaced by a rewind with the one now in `dir`. */
export function isStateReplaced(meta: { getBinary(key: string): Buffer | undefined }, dir: string): boolean {
  const mark = meta.getBinary(REPLACED_BY_KEY);
  // replaceState writes stateFileId's text, never an empty one.
  assert(mark === undefined || mark.length > 0, 'a replacement mark names a file');
  // The mark alone costs one get; only a marked state (a rewind under way or done) looks at the directory.
  return mark !== undefined && mark.toString('latin1') === stateFileId(dir);
}
