// The state's fills through the read API (stateReader.ts): a wallet's and a market's fill lists newest first,
// scans of several lists merged in chain order, counts, and the fills table in chain order (engine/README.md, Data
// layout: one fills table, lists of (block, log index) pairs in buckets).
import { assert, AssertionFailure } from '../assert.js';
import { ID_SPACE } from '../log/idDictionary.js';
import {
  entriesBefore,
  FILL_BUCKET,
  FILL_ENTRY_BYTES,
  FILL_EPOCH_BUCKETS,
  FILL_EPOCHS,
  fillEntriesNewestFirst,
  hasBucket,
  type FillListDb,
} from './createFillLists.js';
import type { FoldCursor } from './foldCursor.js';
import { mergeByChainPosition, type PositionRun } from './mergeByChainPosition.js';
import { newestFirst } from './newestFirst.js';
import type { FillPosition, StoredFill } from './storedFill.js';
import type { StateStore } from './openStateStore.js';
import { CONDITION_TEXT, keyBytes, TOKEN_TEXT, WALLET_TEXT, type IdReads } from './readIds.js';
import {
  blockFillsKey,
  blockRecordKey,
  fillEpochKey,
  fillListKey,
  marketListOwner,
  walletListOwner,
} from './stateKeys.js';
import {
  blockFillCount,
  blockFillOffset,
  decodeFillNumbers,
  decodeFillNumbersInto,
  decodeTradeRow,
  findBlockFill,
  type FillNumbers,
} from './tradeRow.js';

/** Above every bucket number: a range to it runs through the newest bucket. */
const MAX_BUCKET = 0xffffffff;

export interface WalletFillsQuery {
  /** Only fills before this one (newest-first paging). */
  before?: FillPosition | null;
  /** Only fills of this market: stored under it, or under the other ledger's condition of the same market. */
  market?: string | null;
}

/** Where a scan of a market's fills starts and stops. */
export interface FillWindow {
  /** From this fill on (inclusive). */
  from: FillPosition;
  /** Before this block (exclusive); null: through the last folded block. */
  endBlock: number | null;
}

/** A fill as a scan reads it: where it sits, and its numbers. */
export interface ScannedFill {
  block: number;
  fill: FillNumbers;
}

/**
 * A scan over one or more lists' fills, merged in chain order, that holds one fill at a time in itself: `next()`
 * overwrites `block`, `fill` and `list`, so a long scan (the fills feed's) allocates nothing per fill.
 */
export interface FillCursor extends ScannedFill {
  /** Which of the scanned lists the fill is on (its place in the list of lists asked for). */
  list: number;
  /** Moves to the next fill; false once there is none. */
  next(): boolean;
}

export interface FillReads {
  /** The wallet's fills, newest first (by block, then log index). */
  walletFills(wallet: string, query?: WalletFillsQuery): Iterable<StoredFill>;
  /**
   * The fills stored under the market (a condition id, or a token id no condition explains), and under its
   * migration condition's if it has one, newest first.
   */
  marketFills(market: string, query?: { before?: FillPosition | null }): Iterable<StoredFill>;
  /** The first folded block at or after `ts`, null when none is (block times never fall as blocks rise). */
  firstBlockFrom(ts: number): number | null;
  /**
   * The fills of the markets (condition or token ids) inside the window, oldest first, merged in chain order, as
   * a cursor before its first fill (call next() first); `list` is the fill's market's place in `markets`.
   */
  marketsFillCursor(markets: readonly string[], window: FillWindow): FillCursor;
  /**
   * Per wallet asked (lowercase 0x address), its fills in the market (its migration condition's included) and the
   * time of the latest (0 with none).
   */
  marketTradeCounts(conditionId: string, wallets: string[]): Map<string, { fills: number; lastTs: number }>;
  /** The venue's fills from block `fromBlock` on, oldest first, as numbers. */
  fillsFrom(fromBlock: number): Iterable<ScannedFill>;
  /** Every fill of the venue, newest first (by block, then log index), those before `before` when given. */
  venueFills(before?: FillPosition | null): Iterable<StoredFill>;
}

export function createFillReads(
  store: StateStore,
  { idText, idOf }: IdReads,
  foldCursor: () => FoldCursor,
  ledgersOf: (conditionId: string) => string[],
): FillReads {
  /**
   * A scan's view of the fills table: a block's fills are read once while the scan stays in that block. The
   * value is copied into a buffer of the scan's own (the store's fast read reuses its buffer on the next read).
   */
  function createBlockFills(): (block: number) => Buffer {
    let current = -1;
    let bytes = Buffer.alloc(1024);
    const key = Buffer.alloc(4);
    return (block) => {
      if (block !== current) {
        key.writeUInt32BE(block, 0);
        const stored = store.dbs.fills.getBinaryFast(key);
        if (!stored) throw new AssertionFailure(`state: a fill list names block ${block}, which the fills table lacks`);
        // The fold writes a block's value only when the block has a fill (createFoldRunner's writeFills).
        assert(blockFillCount(stored) > 0, 'a block of the fills table has a fill');
        // The fast read may answer with the store's shared buffer, whose `length` says the value's size but whose
        // memory runs on (Buffer.copy then copies all of it): the value's header gives its size, set() copies that.
        const size = blockFillOffset(stored, blockFillCount(stored));
        if (size > bytes.length) bytes = Buffer.alloc(Math.max(size, 2 * bytes.length));
        bytes.set(stored.subarray(0, size));
        current = block;
      }
      assert(bytes.length >= blockFillOffset(bytes, blockFillCount(bytes)), "a scan's copy holds its block's rows");
      return bytes;
    };
  }

  /** Where the fill sits in its block's value; a list naming a fill its block lacks is a broken state. */
  function fillOffset(db: FillListDb, bytes: Buffer, block: number, logIndex: number): number {
    const at = findBlockFill(bytes, logIndex);
    if (at < 0)
      throw new AssertionFailure(`state: ${db} lists a fill the fills table lacks (block ${block}, log ${logIndex})`);
    assert(bytes.readUInt32BE(at) === logIndex, 'the row found is of the fill listed');
    return at;
  }

  /**
   * The numbers of `owner`'s buckets in `db` from `from` through `to`, oldest first or (`newestFirst`) newest
   * first: one bitmap read an epoch of the venue's fills so far.
   */
  function* bucketNumbers(db: FillListDb, owner: string, from: number, to: number, newestFirst = false) {
    // Bucket numbers of this reader's own making: 0, firstBucketFrom's, MAX_BUCKET.
    assert(from >= 0 && from <= to, 'buckets are listed over a range of them');
    const last = Math.min(to, Math.ceil(foldCursor().fills / FILL_BUCKET) - 1);
    if (last < from) return;
    const first = Math.floor(from / FILL_EPOCH_BUCKETS);
    const end = Math.floor(last / FILL_EPOCH_BUCKETS);
    const step = newestFirst ? -1 : 1;
    for (let epoch = newestFirst ? end : first; newestFirst ? epoch >= first : epoch <= end; epoch += step) {
      const bits = store.dbs[FILL_EPOCHS[db]].getBinary(keyBytes(fillEpochKey(owner, epoch)));
      if (!bits) continue;
      const low = Math.max(from, epoch * FILL_EPOCH_BUCKETS);
      const high = Math.min(last, (epoch + 1) * FILL_EPOCH_BUCKETS - 1);
      for (let bucket = newestFirst ? high : low; newestFirst ? bucket >= low : bucket <= high; bucket += step)
        if (hasBucket(bits, bucket)) yield bucket;
    }
  }

  /** A bucket of `owner`'s list; one its epoch's bitmap names and the list lacks is a broken state. */
  function bucketBytes(db: FillListDb, owner: string, bucket: number, fast = false): Buffer {
    const key = keyBytes(fillListKey(owner, bucket));
    const bytes = fast ? store.dbs[db].getBinaryFast(key) : store.dbs[db].getBinary(key);
    if (!bytes) throw new AssertionFailure(`state: ${FILL_EPOCHS[db]} names bucket ${bucket} of a list ${db} lacks`);
    // createFillLists writes a bucket only with an entry in it, whole entries of 8 bytes.
    assert(bytes.length > 0 && bytes.length % FILL_ENTRY_BYTES === 0, 'a list bucket holds whole entries');
    return bytes;
  }

  /** `owner`'s buckets in `db` from `from` through `to`, as their numbers and bytes. */
  function* listBuckets(db: FillListDb, owner: string, from: number, to: number, newestFirst = false) {
    let previous = newestFirst ? MAX_BUCKET + 1 : -1;
    for (const number of bucketNumbers(db, owner, from, to, newestFirst)) {
      assert(newestFirst ? number < previous : number > previous, "a list's buckets come in order, each once");
      previous = number;
      yield { number, value: bucketBytes(db, owner, number) };
    }
  }

  /** The fills on `owner`'s list in `db`, newest first, before `before`, stored under `market` when given. */
  function* listedFills(
    db: FillListDb,
    owner: string | null,
    before: FillPosition | null,
    markets: readonly string[] | null,
  ): Generator<StoredFill> {
    if (owner === null) return;
    // Paging deep into a busy list: from the bucket holding `before`, not through every newer bucket.
    const newest = before === null ? MAX_BUCKET : firstBucketFrom(db, owner, before);
    const blockFills = createBlockFills();
    // The last fill given, to check the list runs newest first: above every block and log index.
    let newerBlock = Infinity;
    let newerLogIndex = Infinity;
    for (const { value } of listBuckets(db, owner, 0, newest, true)) {
      for (const { block, logIndex } of fillEntriesNewestFirst(value, before)) {
        // Buckets newest first, each's entries newest first: a list was appended in chain order.
        assert(
          block < newerBlock || (block === newerBlock && logIndex < newerLogIndex),
          "a list's fills come newest first",
        );
        newerBlock = block;
        newerLogIndex = logIndex;
        const bytes = blockFills(block);
        const { ts, market: stored, row } = decodeTradeRow(bytes, fillOffset(db, bytes, block, logIndex), idText);
        if (markets === null || markets.includes(stored)) yield { block, ts, market: stored, row };
      }
    }
  }

  /**
   * The number of the list's first bucket that may hold entries at or after `from`, by binary search over the
   * owner's buckets (their epochs' bitmaps name them): a page deep into a busy list would otherwise read every bucket
   * before it (the fills feed's 48th page of 100 markets read 350,000 buckets). Past its last bucket: the number
   * after the venue's last.
   */
  function firstBucketFrom(db: FillListDb, owner: string, from: FillPosition): number {
    if (from.block === 0 && from.logIndex === 0) return 0;
    const buckets = [...bucketNumbers(db, owner, 0, MAX_BUCKET)];
    let low = 0;
    let high = buckets.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      // Read at once: the fast read's buffer is not kept past the next read.
      const bytes = bucketBytes(db, owner, buckets[middle]!, true);
      // A bucket ending at or after `from`: the start is at or before it.
      if (entriesBefore(bytes, from) < bytes.length / FILL_ENTRY_BYTES) high = middle;
      else low = middle + 1;
    }
    const first = low < buckets.length ? buckets[low]! : Math.ceil(foldCursor().fills / FILL_BUCKET);
    // The owner's buckets are among the venue's: none lies past the one after its last.
    assert(first <= Math.ceil(foldCursor().fills / FILL_BUCKET), 'the first bucket from a position is a bucket');
    return first;
  }

  /** A list's entries at or after `from`, oldest first, before `endBlock` when given: positions, no fill read. */
  function listEntries(db: FillListDb, owner: string, from: FillPosition, endBlock: number | null): PositionRun {
    const buckets = listBuckets(db, owner, firstBucketFrom(db, owner, from), MAX_BUCKET);
    let bucket: Buffer | null = null;
    let offset = 0;
    let done = false;
    let moved = false;
    const run: PositionRun = {
      block: 0,
      logIndex: 0,
      next() {
        while (!done) {
          // Entries are read whole: bucketBytes checked the bucket's size, entriesBefore answers whole entries.
          assert(
            bucket === null || (offset % FILL_ENTRY_BYTES === 0 && offset <= bucket.length),
            'a run reads whole entries',
          );
          if (bucket === null || offset >= bucket.length) {
            const entry = buckets.next();
            if (entry.done) break;
            bucket = entry.value.value;
            // Entries before the start: skipped by binary search (a bucket wholly before it, at once).
            offset = entriesBefore(bucket, from) * FILL_ENTRY_BYTES;
            continue;
          }
          const block = bucket.readUInt32BE(offset);
          if (endBlock !== null && block >= endBlock) break;
          const logIndex = bucket.readUInt32BE(offset + 4);
          // Buckets oldest first, each in chain order: the merge's heap takes each run as sorted.
          assert(
            !moved || block > run.block || (block === run.block && logIndex > run.logIndex),
            'a list run moves forward in the chain',
          );
          moved = true;
          run.block = block;
          run.logIndex = logIndex;
          offset += FILL_ENTRY_BYTES;
          return true;
        }
        done = true;
        return false;
      },
    };
    return run;
  }

  /**
   * The fills of the lists (null owners: lists with no fill) inside the window, merged in chain order. Fills are
   * read when the cursor reaches them, so the table is read in chain order and each block once per run of it.
   */
  function fillCursor(db: FillListDb, owners: ReadonlyArray<string | null>, window: FillWindow): FillCursor {
    const runs: Array<PositionRun & { list: number }> = [];
    owners.forEach((owner, list) => {
      if (owner === null) return;
      const run = Object.assign(listEntries(db, owner, window.from, window.endBlock), { list });
      if (!run.next()) return;
      // listEntries skipped what lies before the window and stops at its end.
      assert(
        (run.block > window.from.block || (run.block === window.from.block && run.logIndex >= window.from.logIndex)) &&
          (window.endBlock === null || run.block < window.endBlock),
        'a run starts inside its window',
      );
      runs.push(run);
    });
    const merged = mergeByChainPosition(runs);
    const blockFills = createBlockFills();
    let started = false;
    let read = false;
    const cursor: FillCursor = {
      block: 0,
      list: 0,
      fill: {} as FillNumbers,
      next() {
        // Once every run is done, the cursor stays done.
        if (started && merged.peek() !== undefined) merged.advance();
        started = true;
        const run = merged.peek();
        if (run === undefined) return false;
        // The merge answers the oldest head of the runs, each sorted: the cursor never moves back.
        assert(
          !read || run.block > cursor.block || (run.block === cursor.block && run.logIndex >= cursor.fill.logIndex),
          'a fill cursor moves forward in the chain',
        );
        const bytes = blockFills(run.block);
        decodeFillNumbersInto(bytes, fillOffset(db, bytes, run.block, run.logIndex), cursor.fill);
        read = true;
        cursor.block = run.block;
        cursor.list = run.list;
        return true;
      },
    };
    return cursor;
  }

  /** The entries on a list: the sum of its buckets' lengths, read without touching a fill. */
  function listLength(db: FillListDb, owner: string): number {
    let length = 0;
    // Only the sizes: the fast read's buffer is not kept past the next read.
    for (const number of bucketNumbers(db, owner, 0, MAX_BUCKET))
      length += bucketBytes(db, owner, number, true).length / FILL_ENTRY_BYTES;
    // Each of the venue's fills is on one wallet's list and one market's.
    assert(length <= foldCursor().fills, "a list holds at most the venue's fills");
    return length;
  }

  /** The first block record at or after `block`. */
  function recordFrom(block: number): { block: number; ts: number } | null {
    for (const { key, value } of store.dbs.blocks.getRange({ start: keyBytes(blockRecordKey(block)), limit: 1 })) {
      const found = key.readUInt32BE(0);
      assert(found >= block, 'the first record from a block is at or after it');
      return { block: found, ts: value.readUInt32BE(0) };
    }
    return null;
  }

  /** A wallet's list owner, null for a wallet with no fill (or not an address). */
  function walletOwner(wallet: string): string | null {
    if (!WALLET_TEXT.test(wallet)) return null;
    const id = idOf(ID_SPACE.address, wallet);
    return id === null ? null : walletListOwner(id);
  }

  /** A market's list owner: a condition id (0x + 64 hex) or a token id (64 hex); null when it has no fill. */
  function marketOwner(market: string): string | null {
    const space = CONDITION_TEXT.test(market) ? ID_SPACE.condition : TOKEN_TEXT.test(market) ? ID_SPACE.token : null;
    if (space === null) return null;
    const id = idOf(space, market);
    return id === null ? null : marketListOwner(space, id);
  }

  return {
    walletFills(wallet, query = {}) {
      const markets = query.market ? ledgersOf(query.market) : null;
      return listedFills('walletFills', walletOwner(wallet), query.before ?? null, markets);
    },
    marketFills(market, query = {}) {
      const ledgers = ledgersOf(market);
      // Its own condition, and its migration condition or legacy market when it has one (marketReads.ts).
      assert(ledgers.length === 1 || ledgers.length === 2, 'a market has one ledger or two');
      const [own, other] = ledgers.map((id) => listedFills('marketFills', marketOwner(id), query.before ?? null, null));
      return other ? newestFirst(own!, other) : own!;
    },
    firstBlockFrom(ts) {
      const first = recordFrom(0);
      let last: { block: number; ts: number } | null = null;
      for (const { key, value } of store.dbs.blocks.getRange({ reverse: true, limit: 1 }))
        last = { block: key.readUInt32BE(0), ts: value.readUInt32BE(0) };
      if (first === null || last === null || last.ts < ts) return null;
      // The smallest b whose first record at or after it is at or after ts.
      let low = first.block;
      let high = last.block;
      while (low < high) {
        const middle = Math.floor((low + high) / 2);
        const record = recordFrom(middle)!;
        if (record.ts >= ts) high = middle;
        else low = record.block + 1;
      }
      // The search stays among the folded blocks: `low` never passes the last one, which has a record.
      assert(low >= first.block && low <= last.block, 'the first block from a time is a folded block');
      return recordFrom(low)!.block;
    },
    marketsFillCursor(markets, window) {
      return fillCursor('marketFills', markets.map(marketOwner), window);
    },
    marketTradeCounts(conditionId, wallets) {
      const counts = new Map(wallets.map((wallet) => [wallet, { fills: 0, lastTs: 0 }]));
      const marketIds = ledgersOf(conditionId)
        .map((id) => (CONDITION_TEXT.test(id) ? idOf(ID_SPACE.condition, id) : null))
        .filter((id): id is number => id !== null);
      if (marketIds.length === 0) return counts;
      const owners = new Map<number, string>();
      for (const wallet of wallets) {
        const id = WALLET_TEXT.test(wallet) ? idOf(ID_SPACE.address, wallet) : null;
        if (id !== null) owners.set(id, wallet);
      }
      const count = (wallet: string, fill: FillNumbers) => {
        const entry = counts.get(wallet);
        // `owners` names only wallets asked for, each of which has an entry.
        assert(entry !== undefined, 'a fill counted is of a wallet asked for');
        entry.fills++;
        entry.lastTs = Math.max(entry.lastTs, fill.ts);
      };
      const start = { block: 0, logIndex: 0 };
      const marketOwnerKeys = marketIds.map((id) => marketListOwner(ID_SPACE.condition, id));
      // Whichever is shorter: the market's lists, or the asked wallets' lists together.
      let walletEntries = 0;
      for (const id of owners.keys()) walletEntries += listLength('walletFills', walletListOwner(id));
      let marketEntries = 0;
      for (const key of marketOwnerKeys) marketEntries += listLength('marketFills', key);
      if (marketEntries <= walletEntries) {
        const scan = fillCursor('marketFills', marketOwnerKeys, { from: start, endBlock: null });
        while (scan.next()) {
          const wallet = owners.get(scan.fill.walletId);
          if (wallet !== undefined) count(wallet, scan.fill);
        }
      } else {
        for (const [id, wallet] of owners) {
          const scan = fillCursor('walletFills', [walletListOwner(id)], { from: start, endBlock: null });
          while (scan.next()) {
            if (scan.fill.marketSpace === ID_SPACE.condition && marketIds.includes(scan.fill.marketId))
              count(wallet, scan.fill);
          }
        }
      }
      return counts;
    },
    *venueFills(before = null) {
      // From the block of `before` (its fills after it are skipped) down: one value a block, rows in log order.
      const range =
        before === null ? { reverse: true } : { start: keyBytes(blockFillsKey(before.block)), reverse: true };
      for (const { key, value } of store.dbs.fills.getRange(range)) {
        const block = key.readUInt32BE(0);
        assert(before === null || block <= before.block, 'the fills before a fill are at or before its block');
        for (let i = blockFillCount(value) - 1; i >= 0; i--) {
          const { ts, market, row } = decodeTradeRow(value, blockFillOffset(value, i), idText);
          if (before !== null && block === before.block && row.logIndex >= before.logIndex) continue;
          yield { block, ts, market, row };
        }
      }
    },
    *fillsFrom(fromBlock) {
      for (const { key, value } of store.dbs.fills.getRange({ start: keyBytes(blockFillsKey(fromBlock)) })) {
        const block = key.readUInt32BE(0);
        assert(block >= fromBlock, 'the fills from a block are at or after it');
        for (let i = 0; i < blockFillCount(value); i++)
          yield { block, fill: decodeFillNumbers(value, blockFillOffset(value, i)) };
      }
    },
  };
}
