// The writes of one block, collected while it is derived. Records are kept by reference and encoded when the
// block ends, so the bytes are the record's state at the end of that block even if a later block changes it.
import type { StateDbName } from './stateDbNames.js';
import { encodeValue } from './stateCodec.js';
import type { StateWrite } from './stateWrite.js';

export interface BlockWrites {
  /**
   * A record encoded at the end of the block (a later put of the same key replaces it), as it is or as `view`
   * makes it then.
   */
  putRecord<T>(db: StateDbName, key: string, record: T, view?: (record: T) => unknown): void;
  /** Bytes written as they are. */
  putBytes(db: StateDbName, key: string, value: Buffer): void;
  /** The block's writes with their final bytes. */
  finish(): StateWrite[];
}

export function createBlockWrites(): BlockWrites {
  const records = new Map<
    string,
    { db: StateDbName; key: string; record: unknown; view: ((record: never) => unknown) | undefined }
  >();
  const bytes = new Map<string, StateWrite>();
  return {
    putRecord(db, key, record, view) {
      records.set(db + '\u0000' + key, { db, key, record, view });
    },
    putBytes(db, key, value) {
      bytes.set(db + '\u0000' + key, { db, key, value });
    },
    finish() {
      const writes: StateWrite[] = [...bytes.values()];
      for (const { db, key, record, view } of records.values()) {
        writes.push({ db, key, value: encodeValue(view ? view(record as never) : record) });
      }
      return writes;
    },
  };
}
