// The state's id dictionaries (engine/README.md, Data layout): every wallet, token and market the fold stores by
// number gets one, in the order the fold first stores it, so the numbering is a pure function of the log and the
// same for any batch size or worker count. A new id's definition (`ids`: number -> bytes, `idsByValue`: bytes ->
// number) is written with the block that named it, under that block's checksum. The fold keeps a bounded cache of
// them by text (STATE_ID_CACHE), so its heap does not grow with the venue's wallets. The state numbers on its own
// rather than reusing the log's ids: the fold stores tokens the log never names (the outcomes of a split made
// through a venue contract, whose transfers the log leaves out as plumbing).
import { idTextBytes, type IdCounts, type IdSpace } from '../log/idDictionary.js';
import type { BlockWrites } from './blockWrites.js';
import type { StateStore } from './openStateStore.js';
import { idKey, idValueKey, u32Key } from './stateKeys.js';
import { STATE_ID_CACHE } from '../limits.js';

export interface StateIds {
  /** The id of `text`, numbered next if the state has none yet (its definition then goes into `writes`). */
  id(space: IdSpace, text: string, writes: BlockWrites): number;
  /** Ids numbered so far, committed or not. */
  counts(): IdCounts;
  /** Forgets what an abandoned batch numbered: back to the committed counts. */
  reset(committed: IdCounts): void;
  /** Empties each space's cache grown past its limit, except the ids above the committed counts (LMDB lacks them). */
  trim(committed: IdCounts): void;
}

export function createStateIds(store: StateStore, committed: IdCounts, cacheLimit = STATE_ID_CACHE): StateIds {
  // The ids this process numbered or looked up, up to `cacheLimit` a space beyond those not yet committed; a miss
  // reads the committed state, so a resumed process continues where the last one stopped.
  const known: Map<string, number>[] = [new Map(), new Map(), new Map()];
  let next: IdCounts = [...committed];
  // A space the state held nothing of when this process began, and whose cache was never trimmed, is wholly in
  // `known`: a miss there is a new text, with no read (which would walk the B-tree for nothing, once for every new
  // wallet).
  const wholeInMemory = committed.map((count) => count === 0);
  return {
    id(space, text, writes) {
      const cached = known[space]!.get(text);
      if (cached !== undefined) return cached;
      const bytes = idTextBytes(space, text);
      const valueKey = idValueKey(space, bytes);
      const stored = wholeInMemory[space] ? undefined : store.dbs.idsByValue.getBinary(Buffer.from(valueKey, 'latin1'));
      let id: number;
      if (stored) {
        id = stored.readUInt32BE(0);
      } else {
        id = next[space]++;
        writes.putBytes('ids', idKey(space, id), bytes);
        writes.putBytes('idsByValue', valueKey, Buffer.from(u32Key(id), 'latin1'));
      }
      known[space]!.set(text, id);
      return id;
    },
    counts: () => [...next],
    reset(counts) {
      // Ids below the committed counts were committed as numbered: only the abandoned batch's go.
      known.forEach((texts, space) => {
        for (const [text, id] of texts) if (id >= counts[space]!) texts.delete(text);
      });
      next = [...counts];
    },
    trim(counts) {
      known.forEach((texts, space) => {
        if (texts.size <= cacheLimit) return;
        const before = texts.size;
        for (const [text, id] of texts) if (id < counts[space]!) texts.delete(text);
        // Only a text that left the cache can be in the state and not in the cache.
        if (texts.size < before) wholeInMemory[space] = false;
      });
    },
  };
}
