// The writes of one block, collected while it is derived. Records are kept by reference and encoded when the
// block ends, so the bytes are the record's state at the end of that block even if a later block changes it.
import { assert } from '../assert.js';
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
  /** A put after finish would be lost: each block's writes are taken once, at its end. */
  let finished = false;
  return {
    putRecord(db, key, record, view) {
      const at = db + '\u0000' + key;
      // Records and bytes go to databases of their own (the registry's; ids and fills): a key is one or the other.
      assert(!finished, "a record is put before its block's writes are taken");
      assert(!bytes.has(at), 'a key written as bytes is not put as a record too');
      records.set(at, { db, key, record, view });
    },
    putBytes(db, key, value) {
      const at = db + '\u0000' + key;
      assert(!finished, "bytes are put before their block's writes are taken");
      assert(!records.has(at), 'a key put as a record is not written as bytes too');
      bytes.set(at, { db, key, value });
    },
    finish() {
      assert(!finished, "a block's writes are taken once");
      finished = true;
      const writes: StateWrite[] = [...bytes.values()];
      for (const { db, key, record, view } of records.values()) {
        writes.push({ db, key, value: encodeValue(view ? view(record as never) : record) });
      }
      return writes;
    },
  };
}
