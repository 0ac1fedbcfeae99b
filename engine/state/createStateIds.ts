// The state's id dictionaries (engine/README.md, Data layout): every wallet, token and market the fold stores by
// number gets one, in the order the fold first stores it, so the numbering is a pure function of the log and the
// same for any batch size or worker count. A new id's definition (`ids`: number -> bytes, `idsByValue`: bytes ->
// number) is written with the block that named it, under that block's checksum. The state numbers on its own
// rather than reusing the log's ids: the fold stores tokens the log never names (the outcomes of a split made
// through a venue contract, whose transfers the log leaves out as plumbing).
//
// Finding a text's state id never reads the state: every id the state holds is either in `byLog` (an Int32Array a
// space, indexed by the log's id of the text: 4 bytes a log id, off the collected heap) or in `known` (by text).
// `known` is also the cache in front of the log's dictionary (a lookup there, by text, costs a parse and a probe);
// a trim moves its committed entries whose texts the log names into `byLog` and into `aged`, the generation a
// lookup tries next (the wallets trading now trade on), and keeps the rest (a token the log never named). So a
// miss in all three is a new id, however many wallets the venue has; before, a miss read `idsByValue`, a random
// read of a table that grows with history (0.8 µs a log of the main thread at 10M fills). `byLog` is built once
// from the state's `ids` table when a process first needs it, and again if the log is cut back (its ids
// renumbered).
import {
  ID_BYTES,
  ID_SPACES,
  idBytesText,
  idTextBytes,
  type IdCounts,
  type IdDictionary,
  type IdSpace,
} from '../log/idDictionary.js';
import type { BlockWrites } from './blockWrites.js';
import type { StateStore } from './openStateStore.js';
import { idKey, idValueKey, u32Key } from './stateKeys.js';
import { STATE_ID_CACHE } from '../limits.js';
import { assert } from '../assert.js';

export interface StateIds {
  /** The id of `text`, numbered next if the state has none yet (its definition then goes into `writes`). */
  id(space: IdSpace, text: string, writes: BlockWrites): number;
  /** Ids numbered so far, committed or not. */
  counts(): IdCounts;
  /** Forgets what an abandoned batch numbered: back to the committed counts. */
  reset(committed: IdCounts): void;
  /**
   * Past the cache's limit, moves each space's committed ids whose texts the log names out of the cache (they stay
   * found through the log's dictionary).
   */
  trim(committed: IdCounts): void;
}

const NONE = -1;

export function createStateIds(
  store: StateStore,
  committed: IdCounts,
  /** The log's dictionary: the texts it names are found by their log ids. */
  logIds: IdDictionary,
  cacheLimit = STATE_ID_CACHE,
): StateIds {
  // The cursor's ids: the next id of each space, as a commit wrote them.
  assert(
    committed.length === ID_SPACES.length && committed.every((count) => Number.isSafeInteger(count) && count >= 0),
    'state ids start from a count per space',
  );
  assert(Number.isSafeInteger(cacheLimit) && cacheLimit > 0, 'the state id cache holds some ids');
  const known: Map<string, number>[] = [new Map(), new Map(), new Map()];
  /** Per space, the committed entries `known` held the log names, as of its last trim (all in `byLog` too). */
  let aged: Map<string, number>[] = [new Map(), new Map(), new Map()];
  /** Entries of `known` a trim kept because the log does not name their texts: the cache's limit is above them. */
  const pinned = [0, 0, 0];
  let byLog: Int32Array[] = [];
  /** The log dictionary's generation `byLog` was built for; -1: not built. */
  let builtFor = NONE;
  let next: IdCounts = [...committed];

  function stateIdOfLogId(space: IdSpace, logId: number): number {
    assert(logId >= 0, 'a log id counts from 0');
    const ids = byLog[space]!;
    const stateId = logId < ids.length ? ids[logId]! : NONE;
    // `byLog` holds committed ids only, and the next ids never fall below the committed counts.
    assert(stateId < next[space], 'an id found by its log id was numbered');
    return stateId;
  }

  function setLogId(space: IdSpace, logId: number, stateId: number): void {
    assert(logId >= 0 && stateId >= 0 && stateId < next[space], 'a log id maps to a numbered state id');
    let ids = byLog[space]!;
    if (logId >= ids.length) {
      const grown = new Int32Array(Math.max(logId + 1, ids.length * 2)).fill(NONE);
      grown.set(ids);
      byLog[space] = ids = grown;
    }
    ids[logId] = stateId;
    // An Int32Array: a state id past 2^31 would be stored as another number.
    assert(ids[logId] === stateId, 'a state id is kept as it is');
  }

  /** Every committed id of the state, by its log id, or in `known` when the log does not name its text. */
  function build(): void {
    byLog = ID_SPACES.map((space) => new Int32Array(Math.max(1024, logIds.count(space))).fill(NONE));
    for (const { key, value } of store.dbs.ids.getRange({})) {
      // idKey: the space's byte, then the id as a u32.
      assert((key as Buffer).length === 5, 'an id definition is keyed by space and number');
      const space = (key as Buffer)[0] as IdSpace;
      const stateId = (key as Buffer).readUInt32BE(1);
      const bytes = value as Buffer;
      const logId = logIds.idOfBytes(space, bytes, 0);
      if (logId !== NONE) {
        setLogId(space, logId, stateId);
        continue;
      }
      // The state holds only committed ids, and `next` never falls below the committed counts.
      assert(stateId < next[space], 'a stored id was numbered');
      const text = idBytesText(space, bytes);
      if (!known[space]!.has(text)) {
        known[space]!.set(text, stateId);
        pinned[space]!++;
      }
    }
    builtFor = logIds.generation;
  }

  return {
    id(space, text, writes) {
      const cached = known[space]!.get(text);
      if (cached !== undefined) {
        // A reset drops every cached id an abandoned batch numbered.
        assert(cached < next[space], 'a cached id was numbered');
        return cached;
      }
      const recent = aged[space]!.get(text);
      if (recent !== undefined) {
        // `aged` holds committed ids only (a trim moves those below the committed counts).
        assert(recent < next[space], 'an aged id was numbered');
        known[space]!.set(text, recent);
        return recent;
      }
      if (builtFor !== logIds.generation) build();
      const logId = logIds.idOf(space, text);
      if (logId !== undefined) {
        const stored = stateIdOfLogId(space, logId);
        if (stored !== NONE) {
          known[space]!.set(text, stored);
          return stored;
        }
      }
      const id = next[space]++;
      const bytes = idTextBytes(space, text);
      // The fold names only ids it checked (a decoded event's address, token or condition).
      assert(bytes.length === ID_BYTES[space], "a new id's value is its space's width");
      writes.putBytes('ids', idKey(space, id), bytes);
      writes.putBytes('idsByValue', idValueKey(space, bytes), Buffer.from(u32Key(id), 'latin1'));
      known[space]!.set(text, id);
      return id;
    },
    counts: () => [...next],
    reset(counts) {
      // Back to the committed counts: an abandoned batch numbered on from them, never below.
      assert(
        ID_SPACES.every((space) => counts[space] <= next[space]),
        'a reset goes back to counts at or below those numbered',
      );
      // Ids below the committed counts were committed as numbered: only the abandoned batch's go (`byLog` holds
      // committed ids only).
      known.forEach((texts, space) => {
        for (const [text, id] of texts) if (id >= counts[space]!) texts.delete(text);
      });
      next = [...counts];
    },
    trim(counts) {
      for (const space of ID_SPACES) {
        // The committed counts: a batch in flight may have numbered more.
        assert(counts[space] <= next[space], 'a trim keeps ids at or above the committed counts');
        const texts = known[space]!;
        if (texts.size <= cacheLimit + pinned[space]!) continue;
        if (builtFor !== logIds.generation) build();
        let kept = 0;
        const older = new Map<string, number>();
        for (const [text, id] of texts) {
          if (id >= counts[space]) continue;
          const logId = logIds.idOf(space, text);
          if (logId === undefined) {
            kept++;
            continue;
          }
          assert(
            stateIdOfLogId(space, logId) === NONE || stateIdOfLogId(space, logId) === id,
            'state ids: one per text',
          );
          setLogId(space, logId, id);
          older.set(text, id);
          texts.delete(text);
        }
        aged[space] = older;
        pinned[space] = kept;
        assert(kept <= texts.size, 'the pinned ids are among those kept');
      }
    },
  };
}
