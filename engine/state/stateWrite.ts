// One state write of a block: which database, which key, the exact bytes stored.
import type { StateDbName } from './openStateStore.js';

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
