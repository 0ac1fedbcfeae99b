// The state's id dictionaries (engine/README.md, Data layout): every wallet, token and market the fold stores by
// number gets one, in the order the fold first stores it, so the numbering is a pure function of the log and the
// same for any batch size or worker count. A new id's definition (`ids`: number -> bytes, `idsByValue`: bytes ->
// number) is written with the block that named it, under that block's checksum. The state numbers on its own
// rather than reusing the log's ids: the fold stores tokens the log never names (the outcomes of a split made
// through a venue contract, whose transfers the log leaves out as plumbing).
import { idTextBytes, type IdCounts, type IdSpace } from '../log/idDictionary.js';
import type { BlockWrites } from './blockWrites.js';
import type { StateStore } from './openStateStore.js';
import { idKey, idValueKey, u32Key } from './stateKeys.js';

export interface StateIds {
  /** The id of `text`, numbered next if the state has none yet (its definition then goes into `writes`). */
  id(space: IdSpace, text: string, writes: BlockWrites): number;
  /** Ids numbered so far, committed or not. */
  counts(): IdCounts;
  /** Forgets what an abandoned batch numbered: back to the committed counts. */
  reset(committed: IdCounts): void;
}

export function createStateIds(store: StateStore, committed: IdCounts): StateIds {
  // Every id numbered or looked up by this process. Ids are few next to fills (wallets, tokens, markets), so
  // they stay; a miss reads the committed state, so a resumed process continues where the last one stopped.
  let known: Map<string, number>[] = [new Map(), new Map(), new Map()];
  let next: IdCounts = [...committed];
  return {
    id(space, text, writes) {
      const cached = known[space]!.get(text);
      if (cached !== undefined) return cached;
      const bytes = idTextBytes(space, text);
      const valueKey = idValueKey(space, bytes);
      const stored = store.dbs.idsByValue.getBinary(Buffer.from(valueKey, 'latin1'));
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
      known = [new Map(), new Map(), new Map()];
      next = [...counts];
    },
  };
}
