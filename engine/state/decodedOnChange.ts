// A stored value that every request asks for (the fold cursor, the board's record, the off-chain revision), decoded
// again only when its bytes changed: a compare of a few dozen bytes instead of a msgpack decode per request.

import { assert } from '../assert.js';

const NONE = Buffer.alloc(0);

/** `read` answers the stored bytes (undefined when absent, which decodes to `absent`). */
export function decodedOnChange<T>(read: () => Buffer | undefined, decode: (bytes: Buffer) => T, absent: T): () => T {
  let last = NONE;
  let value = absent;
  return () => {
    const stored = read();
    // Every value read so (a cursor, a record, a counter) is msgpack of something: an empty one is no value.
    assert(stored === undefined || stored.length > 0, 'a value decoded on change has bytes');
    const bytes = stored ?? NONE;
    if (!bytes.equals(last)) {
      // A copy: the store may hand out a buffer it reuses.
      last = Buffer.from(bytes);
      value = bytes.length ? decode(bytes) : absent;
    }
    return value;
  };
}
