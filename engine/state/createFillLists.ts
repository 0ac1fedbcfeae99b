// Per-wallet and per-market fill lists (engine/README.md, Data layout): each list is cut into buckets of
// FILL_BUCKET consecutive fills of the whole venue (the fills in fold order), and each bucket's value is its
// entries, 8 bytes each (block, log index), in chain order. A bucket is final once the venue passes it, so
// only the current bucket's lists are kept in memory; a commit writes every list the batch touched once, whole.
// Lists are keyed bucket first, so a commit's puts land together at the table's end, not on a page per owner all
// over a table that grows with history. Which buckets an owner has lists in is kept per epoch (FILL_EPOCH_BUCKETS
// buckets): a bitmap under the epoch, then the owner, rewritten when the owner starts a list in a bucket; so the
// index's puts land in the current epoch's part of it too, and a read by owner looks up one bitmap an epoch.
// The final bytes of a bucket are the same whatever the batch sizes were, so the state stays byte-identical.
import { assert } from '../assert.js';
import type { StateStore } from './openStateStore.js';
import type { FillPosition } from './storedFill.js';
import { fillEpochKey, fillListKey, marketListOwner, walletListOwner } from './stateKeys.js';
import type { StateWrite } from './stateWrite.js';

/** Fills of the venue per bucket: a busy wallet's bucket stays under 128 KiB, rewritten at most once a commit. */
export const FILL_BUCKET = 16_384;
export const FILL_ENTRY_BYTES = 8;

/** Buckets an epoch: a bitmap of 8 bytes says which of them an owner has a list in. */
export const FILL_EPOCH_BUCKETS = 64;
const EPOCH_BITMAP_BYTES = FILL_EPOCH_BUCKETS / 8;

export type FillListDb = 'walletFills' | 'marketFills';

/** The database of a list database's epoch bitmaps (fillEpochKey). */
export const FILL_EPOCHS = { walletFills: 'walletFillEpochs', marketFills: 'marketFillEpochs' } as const;

/** Whether the epoch bitmap `bits` has bucket `bucket` (of its epoch). */
export function hasBucket(bits: Uint8Array, bucket: number): boolean {
  // takeWrites writes every bitmap as two u32 words.
  assert(bits.length === EPOCH_BITMAP_BYTES, 'an epoch bitmap is 8 bytes');
  const bit = bucket % FILL_EPOCH_BUCKETS;
  return (bits[bit >> 3]! & (1 << (bit & 7))) !== 0;
}

interface OpenList {
  db: FillListDb;
  key: string;
  bytes: Buffer;
  length: number;
}

/** An owner's bitmap of the current epoch, as two 32-bit words (no buffer an owner until it is written). */
interface OpenEpoch {
  db: (typeof FILL_EPOCHS)[FillListDb];
  key: string;
  words: [number, number];
}

export interface FillLists {
  /**
   * Appends the venue's fill number `fill` (block, log index) to its owner's list in `db`: a wallet by its id
   * (`space` unused), a market by its id space and id (stateKeys' walletListOwner and marketListOwner).
   */
  add(db: FillListDb, space: number, id: number, fill: number, block: number, logIndex: number): void;
  /** Every list touched since the last call, whole, and every epoch bitmap changed: the batch writes them. */
  takeWrites(): StateWrite[];
  /**
   * Forgets what is in memory (an abandoned batch): lists are read again from the state, which holds `committedFills`.
   */
  clear(committedFills: number): void;
}

function emptyMaps<T>(): Record<FillListDb, Map<number, T>> {
  return { walletFills: new Map(), marketFills: new Map() };
}

/**
 * `committedFills`: the fills the state holds. Only their buckets can have stored entries: a later bucket is new
 * to the state, so its lists start empty without a read (a read that misses costs a B-tree walk, and a new bucket
 * would otherwise cost one per wallet that trades in it).
 */
export function createFillLists(store: StateStore, committedFills: number): FillLists {
  assert(Number.isSafeInteger(committedFills) && committedFills >= 0, 'fill lists start from a count of fills');
  let bucket = -1;
  let storedBuckets = Math.ceil(committedFills / FILL_BUCKET);
  /**
   * The current bucket's lists by owner (space * 2^32 + id), per database: the key is built once per list, not once
   * per fill.
   */
  let open = emptyMaps<OpenList>();
  const touched = new Set<OpenList>();
  /** The current epoch's bitmaps of the owners that started a list in it, kept by this process. */
  let epoch = -1;
  let epochs = emptyMaps<OpenEpoch>();
  const changedEpochs = new Set<OpenEpoch>();

  /** Notes that the owner has a list in `bucket`, which is new to the state. */
  function addBucket(db: FillListDb, owner: string, ownerNumber: number): void {
    // add() has moved to the fill's bucket first.
    assert(bucket >= 0, 'a bucket is noted once the lists are in one');
    const bucketEpoch = Math.floor(bucket / FILL_EPOCH_BUCKETS);
    // Fills are added in the venue's order, so epochs follow one another (a clear starts again from -1).
    assert(bucketEpoch >= epoch, 'fill epochs never go back');
    if (bucketEpoch !== epoch) {
      epoch = bucketEpoch;
      epochs = emptyMaps<OpenEpoch>();
    }
    let found = epochs[db].get(ownerNumber);
    if (!found) {
      const key = fillEpochKey(owner, epoch);
      // The state may hold a bitmap of this epoch only if it holds one of the epoch's buckets.
      const stored =
        epoch * FILL_EPOCH_BUCKETS < storedBuckets
          ? store.dbs[FILL_EPOCHS[db]].getBinary(Buffer.from(key, 'latin1'))
          : undefined;
      assert(stored === undefined || stored.length === EPOCH_BITMAP_BYTES, 'a stored epoch bitmap is 8 bytes');
      const words: [number, number] = stored ? [stored.readUInt32LE(0), stored.readUInt32LE(4)] : [0, 0];
      epochs[db].set(ownerNumber, (found = { db: FILL_EPOCHS[db], key, words }));
    }
    const bit = bucket % FILL_EPOCH_BUCKETS;
    found.words[bit >> 5] = (found.words[bit >> 5]! | (1 << (bit & 31))) >>> 0;
    changedEpochs.add(found);
  }

  function list(db: FillListDb, space: number, id: number): OpenList {
    const ownerNumber = space * 0x1_0000_0000 + id;
    let found = open[db].get(ownerNumber);
    if (!found) {
      // First touch of this bucket by this process: it may hold entries of an earlier run.
      const owner = db === 'walletFills' ? walletListOwner(id) : marketListOwner(space, id);
      const key = fillListKey(owner, bucket);
      const stored = bucket < storedBuckets ? store.dbs[db].getBinary(Buffer.from(key, 'latin1')) : undefined;
      // takeWrites stores whole entries, and only of lists that have one.
      assert(
        stored === undefined || (stored.length > 0 && stored.length % FILL_ENTRY_BYTES === 0),
        'a stored list bucket is whole entries',
      );
      if (!stored) addBucket(db, owner, ownerNumber);
      const bytes = Buffer.alloc(Math.max(64, (stored?.length ?? 0) * 2));
      stored?.copy(bytes);
      open[db].set(ownerNumber, (found = { db, key, bytes, length: stored?.length ?? 0 }));
    }
    return found;
  }

  return {
    add(db, space, id, fill, block, logIndex) {
      // The fold numbers fills in chain order from the committed count: the venue's buckets never go back.
      assert(Number.isSafeInteger(fill) && fill >= 0, "a fill's number is a count");
      const fillBucket = Math.floor(fill / FILL_BUCKET);
      assert(fillBucket >= bucket, 'fill buckets never go back');
      if (fillBucket !== bucket) {
        // The venue left the bucket: its lists are final (the touched ones are still written, held below).
        bucket = fillBucket;
        open = emptyMaps<OpenList>();
      }
      const target = list(db, space, id);
      // A list is in chain order: entriesBefore binary-searches it, readers page it newest first.
      assert(
        target.length === 0 ||
          target.bytes.readUInt32BE(target.length - FILL_ENTRY_BYTES) < block ||
          (target.bytes.readUInt32BE(target.length - FILL_ENTRY_BYTES) === block &&
            target.bytes.readUInt32BE(target.length - 4) < logIndex),
        'a fill is added after the last on its list',
      );
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
      for (const target of touched) {
        // A list is touched by an add, which appends a whole entry.
        assert(target.length > 0 && target.length % FILL_ENTRY_BYTES === 0, 'a list written holds whole entries');
        writes.push({ db: target.db, key: target.key, value: Buffer.from(target.bytes.subarray(0, target.length)) });
      }
      for (const { db, key, words } of changedEpochs) {
        // addBucket sets a bit of the current epoch whenever it marks a bitmap changed.
        assert(words[0] !== 0 || words[1] !== 0, 'an epoch bitmap written names a bucket');
        const value = Buffer.allocUnsafe(EPOCH_BITMAP_BYTES);
        value.writeUInt32LE(words[0], 0);
        value.writeUInt32LE(words[1], 4);
        writes.push({ db, key, value });
      }
      touched.clear();
      changedEpochs.clear();
      return writes;
    },
    clear(committed) {
      // An abandoned batch's lists go; the state holds at least the fills of the lists it read back.
      assert(Number.isSafeInteger(committed) && committed >= 0, 'fill lists are cleared back to a count of fills');
      bucket = -1;
      storedBuckets = Math.ceil(committed / FILL_BUCKET);
      open = emptyMaps<OpenList>();
      touched.clear();
      epoch = -1;
      epochs = emptyMaps<OpenEpoch>();
      changedEpochs.clear();
    },
  };
}

/** Whether a bucket's entry `index` lies before `position` in the chain. */
const isEntryBefore = (value: Buffer, index: number, position: FillPosition): boolean =>
  value.readUInt32BE(index * FILL_ENTRY_BYTES) < position.block ||
  (value.readUInt32BE(index * FILL_ENTRY_BYTES) === position.block &&
    value.readUInt32BE(index * FILL_ENTRY_BYTES + 4) < position.logIndex);

/** How many of a bucket's entries lie before `position`, by binary search (entries are in chain order). */
export function entriesBefore(value: Buffer, position: FillPosition): number {
  assert(value.length % FILL_ENTRY_BYTES === 0, 'a list bucket is whole entries');
  let low = 0;
  let high = value.length / FILL_ENTRY_BYTES;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (isEntryBefore(value, middle, position)) low = middle + 1;
    else high = middle;
  }
  // The answer splits the bucket (in chain order, as add() keeps it): before it, entries before the position.
  assert(low === 0 || isEntryBefore(value, low - 1, position), 'the entries counted lie before the position');
  return low;
}

/**
 * A list bucket's entries, newest first; with `before`, only those before it. The start is found by binary
 * search, so paging deep into a busy wallet's list does not walk the newer entries again.
 */
export function* fillEntriesNewestFirst(value: Buffer, before: FillPosition | null = null): Generator<FillPosition> {
  const end = before ? entriesBefore(value, before) : value.length / FILL_ENTRY_BYTES;
  assert(Number.isInteger(end), 'a list bucket is read by whole entries');
  for (let offset = (end - 1) * FILL_ENTRY_BYTES; offset >= 0; offset -= FILL_ENTRY_BYTES) {
    yield { block: value.readUInt32BE(offset), logIndex: value.readUInt32BE(offset + 4) };
  }
}
