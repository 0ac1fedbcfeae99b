// The state's ids read back (createStateIds numbers wallets, tokens and conditions in the fold): an id's text, and
// the id of a text; and the texts the read API takes, checked before a lookup.
import { assert, AssertionFailure } from '../assert.js';
import { ID_BYTES, ID_SPACES, idBytesText, idTextBytes, type IdSpace } from '../log/idDictionary.js';
import { ID_TEXT_CACHE } from '../limits.js';
import type { StateStore } from './openStateStore.js';
import { idKey, idValueKey } from './stateKeys.js';

export const WALLET_TEXT = /^0x[0-9a-f]{40}$/;
export const CONDITION_TEXT = /^0x[0-9a-f]{64}$/;
export const TOKEN_TEXT = /^[0-9a-f]{64}$/;

export const keyBytes = (key: string) => Buffer.from(key, 'latin1');

export interface IdReads {
  /** The text of a state id. */
  idText(space: number, id: number): string;
  /** The state's number for a text, null when the log never named it. */
  idOf(space: IdSpace, text: string): number | null;
}

export function createIdReads(store: StateStore): IdReads {
  // An id's text never changes once the fold has numbered it (numbering is a pure function of the log, so a
  // rebuilt state gives the same id the same text); only a rewind and a different chain after it renumber the ids
  // past the rewound block, and a rewound state is another opening of the store, which empties the cache.
  const texts: Map<number, string>[] = [new Map(), new Map(), new Map()];
  let textsOpened = store.opened;
  function idText(space: number, id: number): string {
    // Ids a stored row, key or list names: numbered by createStateIds from 0, u32 in every key.
    assert(id >>> 0 === id, 'a state id is a u32');
    assert(space >= 0 && space < ID_SPACES.length, 'a state id is of an id space');
    if (textsOpened !== store.opened) {
      for (const cache of texts) cache.clear();
      textsOpened = store.opened;
    }
    const cache = texts[space]!;
    let text = cache.get(id);
    if (text === undefined) {
      const bytes = store.dbs.ids.getBinary(keyBytes(idKey(space, id)));
      if (!bytes) throw new AssertionFailure(`state: id ${id} of space ${space} has no definition`);
      text = idBytesText(space as IdSpace, bytes);
      if (cache.size >= ID_TEXT_CACHE) cache.clear();
      cache.set(id, text);
    }
    // The cache holds only what the ids table defined; a clear leaves it empty, never over its bound.
    assert(cache.size <= ID_TEXT_CACHE, 'the id text cache stays within its bound');
    return text;
  }
  function idOf(space: IdSpace, text: string): number | null {
    const value = idTextBytes(space, text);
    // Not an id of the space (a bytes31 condition of metadata, a text that is not hex): no id has such a value.
    if (value.length !== ID_BYTES[space]) return null;
    const bytes = store.dbs.idsByValue.getBinary(keyBytes(idValueKey(space, value)));
    if (!bytes) return null;
    // createStateIds writes a u32Key as the value of every idsByValue key.
    assert(bytes.length === 4, 'an id by value is a u32');
    return bytes.readUInt32BE(0);
  }
  return { idText, idOf };
}
