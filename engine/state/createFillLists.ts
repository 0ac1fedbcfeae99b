// Per-wallet and per-market fill lists (engine/README.md, Data layout): each list is cut into buckets of
// FILL_BUCKET consecutive fills of the whole venue (the fills in fold order), and each bucket's value is its
// entries, 8 bytes each (block, log index), in chain order. A bucket is final once the venue passes it, so
// only the current bucket's lists are kept in memory; a commit writes every list the batch touched once, whole.
// The final bytes of a bucket are the same whatever the batch sizes were, so the state stays byte-identical.
import type { StateStore } from './openStateStore.js';
import type { FillPosition } from './fillReads.js';
import { fillListKey, marketListOwner, walletListOwner } from './stateKeys.js';
import type { StateWrite } from './stateWrite.js';

/** Fills of the venue per bucket: a busy wallet's bucket stays under 128 KiB, rewritten at most once a commit. */
export const FILL_BUCKET = 16_384;
export const FILL_ENTRY_BYTES = 8;

export type FillListDb = 'walletFills' | 'marketFills';

interface OpenList {
  db: FillListDb;
  key: string;
  bytes: Buffer;
  length: number;
}

export interface FillLists {
  /**
   * Appends the venue's fill number `fill` (block, log index) to its owner's list in `db`: a wallet by its id
   * (`space` unused), a market by its id space and id (stateKeys' walletListOwner and marketListOwner).
   */
  add(db: FillListDb, space: number, id: number, fill: number, block: number, logIndex: number): void;
  /** The whole bytes of every list touched since the last call: the batch writes them. */
  takeWrites(): StateWrite[];
  /**
   * Forgets what is in memory (an abandoned batch): lists are read again from the state, which holds `committedFills`.
   */
  clear(committedFills: number): void;
}

function emptyLists(): Record<FillListDb, Map<number, OpenList>> {
  return { walletFills: new Map(), marketFills: new Map() };
}

/**
 * `committedFills`: the fills the state holds. Only their buckets can have stored entries: a later bucket is new
 * to the state, so its lists start empty without a read (a read that misses costs a B-tree walk, and a new bucket
 * would otherwise cost one per wallet that trades in it).
 */
export function createFillLists(store: StateStore, committedFills: number): FillLists {
  let bucket = -1;
  let storedBuckets = Math.ceil(committedFills / FILL_BUCKET);
  /**
   * The current bucket's lists by owner (space * 2^32 + id), per database: the key is built once per list, not once
   * per fill.
   */
  let open = emptyLists();
  const touched = new Set<OpenList>();

  function list(db: FillListDb, space: number, id: number): OpenList {
    let found = open[db].get(space * 0x1_0000_0000 + id);
    if (!found) {
      // First touch of this bucket by this process: it may hold entries of an earlier run.
      const key = fillListKey(db === 'walletFills' ? walletListOwner(id) : marketListOwner(space, id), bucket);
      const stored = bucket < storedBuckets ? store.dbs[db].getBinary(Buffer.from(key, 'latin1')) : undefined;
      const bytes = Buffer.alloc(Math.max(64, (stored?.length ?? 0) * 2));
      stored?.copy(bytes);
      open[db].set(space * 0x1_0000_0000 + id, (found = { db, key, bytes, length: stored?.length ?? 0 }));
    }
    return found;
  }

  return {
    add(db, space, id, fill, block, logIndex) {
      const fillBucket = Math.floor(fill / FILL_BUCKET);
      if (fillBucket !== bucket) {
        // The venue left the bucket: its lists are final (the touched ones are still written, held below).
        bucket = fillBucket;
        open = emptyLists();
      }
      const target = list(db, space, id);
      if (target.length + FILL_ENTRY_BYTES > target.bytes.length) {
        const grown = Buffer.alloc(target.bytes.length * 2);
        target.bytes.copy(grown, 0, 0, target.length);
        target.bytes = grown;
      }
      target.bytes.writeUInt32BE(block, target.length);
      target.bytes.writeUInt32BE(logIndex, target.length + 4);
      target.length += FILL_ENTRY_BYTES;
      touched.add(target);
    },
    takeWrites() {
      const writes: StateWrite[] = [];
      for (const target of touched)
        writes.push({ db: target.db, key: target.key, value: Buffer.from(target.bytes.subarray(0, target.length)) });
      touched.clear();
      return writes;
    },
    clear(committed) {
      bucket = -1;
      storedBuckets = Math.ceil(committed / FILL_BUCKET);
      open = emptyLists();
      touched.clear();
    },
  };
}

/** How many of a bucket's entries lie before `position`, by binary search (entries are in chain order). */
export function entriesBefore(value: Buffer, position: FillPosition): number {
  let low = 0;
  let high = value.length / FILL_ENTRY_BYTES;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const block = value.readUInt32BE(middle * FILL_ENTRY_BYTES);
    const isBefore =
      block < position.block ||
      (block === position.block && value.readUInt32BE(middle * FILL_ENTRY_BYTES + 4) < position.logIndex);
    if (isBefore) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * A list bucket's entries, newest first; with `before`, only those before it. The start is found by binary
 * search, so paging deep into a busy wallet's list does not walk the newer entries again.
 */
export function* fillEntriesNewestFirst(value: Buffer, before: FillPosition | null = null): Generator<FillPosition> {
  const end = before ? entriesBefore(value, before) : value.length / FILL_ENTRY_BYTES;
  for (let offset = (end - 1) * FILL_ENTRY_BYTES; offset >= 0; offset -= FILL_ENTRY_BYTES) {
    yield { block: value.readUInt32BE(offset), logIndex: value.readUInt32BE(offset + 4) };
  }
}
