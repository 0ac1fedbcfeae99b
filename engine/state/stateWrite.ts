// One state write of a block: which database, which key, the exact bytes stored; and a write of the meta database
// that rides along with a batch.
import type { StateDbName } from './stateDbNames.js';

export interface StateWrite {
  db: StateDbName;
  key: string;
  value: Buffer;
}

/** Order of writes inside a block's checksum: database, then key (ASCII, so code-unit order is byte order). */
export function compareWrites(a: StateWrite, b: StateWrite): number {
  if (a.db !== b.db) return a.db < b.db ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/**
 * A record of the state's meta database written in a batch's transaction: what the batch's source says of how far
 * it has come (a replica's stream position), so that it never disagrees with the state.
 */
export interface MetaWrite {
  key: string;
  value: Buffer;
}
