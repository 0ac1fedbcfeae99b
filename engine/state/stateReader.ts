// The one read API over the folded state (engine/README.md, Data layout): the API and the CLI read positions,
// fills, markets, the cursor and block records through it, and nothing outside engine/state knows a key layout
// or a codec. Reads go to the memory-mapped state as it was last committed; iterators are lazy, so a route that
// stops early reads no further.
import type { Position } from '../reducers/position.js';
import { settleCombo } from '../valuation/comboResolution.js';
import { CURSOR_KEY, decodeBlockRecord, EMPTY_CURSOR, type BlockRecord, type FoldCursor } from './foldCursor.js';
import {
  joinMarket,
  type FeedAnswer,
  type RoundReport,
  type MarketRecord,
  type NegRiskEventRecord,
  type StoredMark,
  type TokenRecord,
} from './marketRecords.js';
import { readLatestTagRun, readLatestTagRunNumber, type TagRun } from './tagRuns.js';
import type { StateStore } from './openStateStore.js';
import { readSourceHead, type SourceHead } from './sourceHead.js';
import { readSourceOutage, type SourceOutage } from './sourceOutage.js';
import { stateKeepsTrades } from './stateLayout.js';
import { decodePosition, decodeValue } from './stateCodec.js';
import {
  entriesBefore,
  FILL_BUCKET,
  FILL_ENTRY_BYTES,
  fillEntriesNewestFirst,
  type FillListDb,
} from './createFillLists.js';
import {
  blockFillsKey,
  blockRecordKey,
  feedAnswerKey,
  roundReportKey,
  UNKNOWN_TOPIC_PREFIX,
  fillListKey,
  idKey,
  idValueKey,
  marketListOwner,
  positionKey,
  u32Key,
  walletListOwner,
} from './stateKeys.js';
import { ID_SPACE, idBytesText, idTextBytes, type IdSpace } from '../log/idDictionary.js';
import type { BoardRow } from '../rollup/boardRow.js';
import type { ResultTable } from '../rollup/resultTable.js';
import {
  decodeResults,
  decodeRow,
  readBoardInfo,
  resultsDb,
  resultsKey,
  rowKey,
  rowsDb,
  type BoardInfo,
} from './boardTables.js';
import {
  blockFillCount,
  blockFillOffset,
  decodeFillNumbers,
  decodeFillNumbersInto,
  decodeTradeRow,
  findBlockFill,
  type FillNumbers,
  type TradeRow,
} from './tradeRow.js';
import { mergeByChainPosition, type PositionRun } from './mergeByChainPosition.js';
import { newestFirst } from './newestFirst.js';

/** A fill as stored, with where it sits in the chain. */
export interface StoredFill {
  block: number;
  /** The block's time. */
  ts: number;
  /** The market it is stored under: the condition id, or the token id of a token no condition explains. */
  market: string;
  row: TradeRow;
}

/** Where a fill sits in the chain. */
export interface FillPosition {
  block: number;
  logIndex: number;
}

export interface WalletFillsQuery {
  /** Only fills before this one (newest-first paging). */
  before?: FillPosition | null;
  /** Only fills of this market: stored under it, or under the other ledger's condition of the same market. */
  market?: string | null;
}

/**
 * A wallet that ever held a position in a market, with its position in each outcome (by outcome index); for a CTF
 * market with a Protocol V2 migration condition, its positions there too (`migrated`, by outcome index; null for
 * a market without one).
 */
export interface MarketHolder {
  wallet: string;
  positions: Array<Position | null>;
  migrated: Array<Position | null> | null;
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

export interface StateReader {
  /**
   * Reads on from the state a rewind moved into the store's directory, when one did (stateReplacement.ts); answers
   * how many times the store has been opened, which changes then: what a reader cached of the old state is stale.
   */
  followRewind(): number;
  /** The fold's cursor as last committed (decoded again only when a commit changed it). */
  cursor(): FoldCursor;
  block(block: number): BlockRecord | null;
  /** Block records in block order, or newest first with `reverse`. */
  blocks(options?: { reverse?: boolean; limit?: number }): Iterable<BlockRecord>;
  /** The RPC source's finalized head, when an RPC ingest recorded one. */
  sourceHead(): SourceHead | null;
  /** The chain source's outage while its requests fail (sourceOutage.ts), null while it answers. */
  sourceOutage(): SourceOutage | null;
  /** The token's market and outcome, or null while no condition explains it. */
  token(token: string): TokenRecord | null;
  /** The market record with its marks, or null for a condition the log never prepared. */
  market(conditionId: string): MarketRecord | null;
  /** The wallet's positions in token order. */
  walletPositions(wallet: string): Iterable<{ token: string; position: Position }>;
  /**
   * Every wallet that holds a position, in address order, with its number of positions (read whole: tests and benches
   * pick wallets from it).
   */
  positionHolders(): Iterable<{ wallet: string; positions: number }>;
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
   * Every wallet that ever held a position in the market (or in its migration condition), in the order the fold
   * first numbered them.
   */
  marketHolders(conditionId: string): Iterable<MarketHolder>;
  /**
   * The condition ids of one market on both ledgers (DESIGN 10: a migration condition's positions are its legacy
   * market's): [the CTF condition, its migration condition], whichever is asked; else [the id].
   */
  marketLedgers(conditionId: string): string[];
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
  /** The text of a state id, as fills' numbers name wallets (ID_SPACE.address) and markets (their marketSpace). */
  idText(space: number, id: number): string;
  /** False when the state was folded with the trade store off: it holds no fills. */
  keepsTrades(): boolean;
  /** The state's number for a wallet, token or condition (ID_SPACE), null when the log never named it. */
  idNumber(space: IdSpace, text: string): number | null;
  /**
   * Whole wallets' positions by ids, in wallet id order from `walletId`, at least `minPositions` of them when there
   * are.
   */
  positionsFrom(
    walletId: number,
    minPositions: number,
  ): Array<{ walletId: number; tokenId: number; position: Position }>;
  /** A neg-risk event (its market id) with its questions, null while the log has not prepared it. */
  negRiskEvent(marketId: string): NegRiskEventRecord | null;
  /** The latest wallet-tag run, null before the first. */
  latestTagRun(): TagRun | null;
  /** Its number alone, read without decoding the run. */
  latestTagRunNumber(): number | null;
  /** The asset's last price-feed answer updated at or before `ts`, null when none is. */
  feedAnswerAt(asset: string, ts: number): FeedAnswer | null;
  /** A Protocol V2 round's reported prices by its question id. */
  roundReport(questionId: string): RoundReport | null;
  /** Logs of Protocol V2 contracts with a topic tally does not know, by topic0 (in topic order). */
  unknownTopics(): Record<string, number>;
  /** The rollup the board's tables hold, or null before the first. */
  board(): BoardInfo | null;
  /** A wallet's lifetime board row in a category (BOARD_CATEGORIES index), null when it has none. */
  boardRow(category: number, walletId: number): BoardRow | null;
  /** Every lifetime board row of a category, in wallet id order. */
  boardRows(category: number): Iterable<{ walletId: number; row: BoardRow }>;
  /** A wallet's market results, in market key order. */
  walletResults(walletId: number): ResultTable;
  /** Every wallet's market results, in wallet id order (a step's table is valid until the next step). */
  boardResults(): Iterable<{ walletId: number; results: ResultTable }>;
}

const WALLET_TEXT = /^0x[0-9a-f]{40}$/;
const CONDITION_TEXT = /^0x[0-9a-f]{64}$/;
const TOKEN_TEXT = /^[0-9a-f]{64}$/;
const MAX_U32 = 0xffffffff;
/** Above every bucket number: a reverse range from it starts at the newest bucket. */
const MAX_BUCKET = MAX_U32;
const NONE: Buffer = Buffer.alloc(0);
/** Texts of ids kept per space: the ids a page of fills names repeat (its wallet, markets, counterparties). */
const ID_TEXT_CACHE = 100_000;

const keyBytes = (key: string) => Buffer.from(key, 'latin1');

export function createStateReader(store: StateStore): StateReader {
  // An id's text never changes once the fold has numbered it (numbering is a pure function of the log, so a
  // rebuilt state gives the same id the same text); only a rewind and a different chain after it renumber the ids
  // past the rewound block, and a rewound state is another opening of the store, which empties the cache.
  const texts: Map<number, string>[] = [new Map(), new Map(), new Map()];
  let textsOpened = store.opened;
  function idText(space: number, id: number): string {
    if (textsOpened !== store.opened) {
      for (const cache of texts) cache.clear();
      textsOpened = store.opened;
    }
    const cache = texts[space]!;
    let text = cache.get(id);
    if (text === undefined) {
      const bytes = store.dbs.ids.getBinary(keyBytes(idKey(space, id)));
      if (!bytes) throw new Error(`state: id ${id} of space ${space} has no definition`);
      text = idBytesText(space as IdSpace, bytes);
      if (cache.size >= ID_TEXT_CACHE) cache.clear();
      cache.set(id, text);
    }
    return text;
  }
  function idOf(space: IdSpace, text: string): number | null {
    const bytes = store.dbs.idsByValue.getBinary(keyBytes(idValueKey(space, idTextBytes(space, text))));
    return bytes ? bytes.readUInt32BE(0) : null;
  }

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
        if (!stored) throw new Error(`state: a fill list names block ${block}, which the fills table lacks`);
        // The fast read may answer with the store's shared buffer, whose `length` says the value's size but whose
        // memory runs on (Buffer.copy then copies all of it): the value's header gives its size, set() copies that.
        const size = blockFillOffset(stored, blockFillCount(stored));
        if (size > bytes.length) bytes = Buffer.alloc(Math.max(size, 2 * bytes.length));
        bytes.set(stored.subarray(0, size));
        current = block;
      }
      return bytes;
    };
  }

  /** Where the fill sits in its block's value; a list naming a fill its block lacks is a broken state. */
  function fillOffset(db: FillListDb, bytes: Buffer, block: number, logIndex: number): number {
    const at = findBlockFill(bytes, logIndex);
    if (at < 0) throw new Error(`state: ${db} lists a fill the fills table lacks (block ${block}, log ${logIndex})`);
    return at;
  }

  /** The fills on `owner`'s list in `db`, newest first, before `before`, stored under `market` when given. */
  function* listedFills(
    db: FillListDb,
    owner: string | null,
    before: FillPosition | null,
    markets: readonly string[] | null,
  ): Generator<StoredFill> {
    if (owner === null) return;
    // Paging deep into a busy list: from the bucket holding `before`, not through every newer bucket. The next
    // bucket is included too (a reverse range's start may be exclusive): its entries are all after `before`.
    const newest = before === null ? MAX_BUCKET : Math.min(MAX_BUCKET, firstBucketFrom(db, owner, before) + 1);
    const range = { start: keyBytes(fillListKey(owner, newest)), end: keyBytes(owner), reverse: true };
    const blockFills = createBlockFills();
    for (const { value } of store.dbs[db].getRange(range)) {
      for (const { block, logIndex } of fillEntriesNewestFirst(value, before)) {
        const bytes = blockFills(block);
        const { ts, market: stored, row } = decodeTradeRow(bytes, fillOffset(db, bytes, block, logIndex), idText);
        if (markets === null || markets.includes(stored)) yield { block, ts, market: stored, row };
      }
    }
  }

  function ledgersOf(conditionId: string): string[] {
    const record = marketRecord(conditionId);
    if (record?.migration) return [conditionId, record.migration];
    const legacy = record?.v2?.legacyConditionId;
    if (legacy && marketRecord(legacy)?.migration === conditionId) return [legacy, conditionId];
    return [conditionId];
  }

  /** The positions of `walletId` in the outcomes of `tokenIds` (by outcome index). */
  function walletLegs(walletId: number, tokenIds: ReadonlyArray<number | null>): Array<Position | null> {
    return tokenIds.map((tokenId) => {
      const bytes =
        tokenId === null ? undefined : store.dbs.positions.getBinary(keyBytes(positionKey(walletId, tokenId)));
      return bytes ? decodePosition(bytes) : null;
    });
  }

  function marketRecord(conditionId: string): MarketRecord | null {
    const bytes = store.dbs.markets.getBinary(conditionId);
    if (!bytes) return null;
    const marks = store.dbs.marketMarks.getBinary(conditionId);
    const record = joinMarket(decodeValue<MarketRecord>(bytes), marks && decodeValue<[number, ...StoredMark[]]>(marks));
    // A combo's result is its legs': derived here, so every reader settles it alike.
    return record.v2?.legs ? settleCombo(record, marketRecord) : record;
  }

  let cursorBytes = NONE;
  let cursor: FoldCursor = EMPTY_CURSOR;
  /** The fold's cursor as last committed, decoded again only when a commit changed it. */
  function foldCursor(): FoldCursor {
    const bytes = store.dbs.meta.getBinary(CURSOR_KEY) ?? NONE;
    if (!bytes.equals(cursorBytes)) {
      cursorBytes = Buffer.from(bytes);
      cursor = bytes.length ? decodeValue<FoldCursor>(bytes) : EMPTY_CURSOR;
    }
    return cursor;
  }

  /** The list's first stored bucket numbered `bucket` or later, as its number and bytes. */
  function bucketFrom(db: FillListDb, owner: string, bucket: number): { number: number; bytes: Buffer } | null {
    const range = {
      start: keyBytes(fillListKey(owner, bucket)),
      end: keyBytes(fillListKey(owner, MAX_BUCKET)),
      limit: 1,
    };
    for (const { key, value } of store.dbs[db].getRange(range))
      return { number: key.readUInt32BE(key.length - 4), bytes: value };
    return null;
  }

  /**
   * The number of the list's first bucket that may hold entries at or after `from`, by binary search over bucket
   * numbers: a page deep into a busy list would otherwise read every bucket before it (the fills feed's 48th page
   * of 100 markets read 350,000 buckets).
   */
  function firstBucketFrom(db: FillListDb, owner: string, from: FillPosition): number {
    if (from.block === 0 && from.logIndex === 0) return 0;
    let low = 0;
    let high = Math.ceil(foldCursor().fills / FILL_BUCKET);
    while (low < high) {
      const middle = (low + high) >>> 1;
      const found = bucketFrom(db, owner, middle);
      // Past the list's last bucket, or a bucket ending at or after `from`: the start is at or before it.
      if (found === null || entriesBefore(found.bytes, from) < found.bytes.length / FILL_ENTRY_BYTES) high = middle;
      else low = found.number + 1;
    }
    return low;
  }

  /** A list's entries at or after `from`, oldest first, before `endBlock` when given: positions, no fill read. */
  function listEntries(db: FillListDb, owner: string, from: FillPosition, endBlock: number | null): PositionRun {
    const start = keyBytes(fillListKey(owner, firstBucketFrom(db, owner, from)));
    const buckets = store.dbs[db].getRange({ start, end: keyBytes(fillListKey(owner, MAX_BUCKET)) })[Symbol.iterator]();
    let bucket: Buffer | null = null;
    let offset = 0;
    let done = false;
    const run: PositionRun = {
      block: 0,
      logIndex: 0,
      next() {
        while (!done) {
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
          run.block = block;
          run.logIndex = bucket.readUInt32BE(offset + 4);
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
      if (run.next()) runs.push(run);
    });
    const merged = mergeByChainPosition(runs);
    const blockFills = createBlockFills();
    let started = false;
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
        const bytes = blockFills(run.block);
        decodeFillNumbersInto(bytes, fillOffset(db, bytes, run.block, run.logIndex), cursor.fill);
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
    const range = { start: keyBytes(owner), end: keyBytes(fillListKey(owner, MAX_BUCKET)) };
    for (const { value } of store.dbs[db].getRange(range)) length += value.length / FILL_ENTRY_BYTES;
    return length;
  }

  /** The first block record at or after `block`. */
  function recordFrom(block: number): { block: number; ts: number } | null {
    for (const { key, value } of store.dbs.blocks.getRange({ start: keyBytes(blockRecordKey(block)), limit: 1 })) {
      return { block: key.readUInt32BE(0), ts: value.readUInt32BE(0) };
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
    followRewind() {
      store.followReplacement();
      return store.opened;
    },
    cursor: foldCursor,
    block(block) {
      const bytes =
        Number.isInteger(block) && block >= 0 && block <= MAX_U32
          ? store.dbs.blocks.getBinary(keyBytes(blockRecordKey(block)))
          : undefined;
      return bytes ? decodeBlockRecord(block, bytes) : null;
    },
    *blocks(options = {}) {
      for (const { key, value } of store.dbs.blocks.getRange({ reverse: options.reverse, limit: options.limit }))
        yield decodeBlockRecord(key.readUInt32BE(0), value);
    },
    sourceHead: () => readSourceHead(store),
    sourceOutage: () => readSourceOutage(store),
    token(token) {
      const bytes = store.dbs.tokens.getBinary(token);
      return bytes ? decodeValue<TokenRecord>(bytes) : null;
    },
    market: marketRecord,
    walletPositions(wallet) {
      const id = WALLET_TEXT.test(wallet) ? idOf(ID_SPACE.address, wallet) : null;
      if (id === null) return [];
      const range = { start: keyBytes(u32Key(id)), end: keyBytes(u32Key(id + 1)) };
      const positions: Array<{ token: string; position: Position }> = [];
      for (const { key, value } of store.dbs.positions.getRange(range)) {
        positions.push({ token: idText(ID_SPACE.token, key.readUInt32BE(4)), position: decodePosition(value) });
      }
      // Token ids number tokens in fold order; answers list them in token order.
      return positions.sort((a, b) => (a.token < b.token ? -1 : 1));
    },
    positionHolders() {
      const holders: Array<{ wallet: string; positions: number }> = [];
      let walletId = -1;
      for (const key of store.dbs.positions.getKeys({})) {
        const id = key.readUInt32BE(0);
        if (id === walletId) holders[holders.length - 1]!.positions++;
        else {
          walletId = id;
          holders.push({ wallet: idText(ID_SPACE.address, id), positions: 1 });
        }
      }
      return holders.sort((a, b) => (a.wallet < b.wallet ? -1 : 1));
    },
    walletFills(wallet, query = {}) {
      const markets = query.market ? ledgersOf(query.market) : null;
      return listedFills('walletFills', walletOwner(wallet), query.before ?? null, markets);
    },
    marketFills(market, query = {}) {
      const [own, other] = ledgersOf(market).map((id) =>
        listedFills('marketFills', marketOwner(id), query.before ?? null, null),
      );
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
      return recordFrom(low)!.block;
    },
    *marketHolders(conditionId) {
      const [ctf, migration] = ledgersOf(conditionId).map((id) => {
        const stateId = CONDITION_TEXT.test(id) ? idOf(ID_SPACE.condition, id) : null;
        const tokens = marketRecord(id)?.tokens ?? null;
        if (stateId === null || tokens === null) return null;
        return { stateId, tokenIds: tokens.map((token) => idOf(ID_SPACE.token, token)) };
      });
      const holders = (part: typeof ctf) =>
        part === null || part === undefined
          ? []
          : store.dbs.marketWallets
              .getKeys({ start: keyBytes(u32Key(part.stateId)), end: keyBytes(u32Key(part.stateId + 1)) })
              .map((key) => key.readUInt32BE(4));
      if (migration === undefined) {
        if (ctf === null || ctf === undefined) return;
        for (const walletId of holders(ctf))
          yield {
            wallet: idText(ID_SPACE.address, walletId),
            positions: walletLegs(walletId, ctf.tokenIds),
            migrated: null,
          };
        return;
      }
      // Both ledgers: every wallet of either, in id order (as each index lists them).
      const walletIds = [...new Set([...holders(ctf), ...holders(migration)])].sort((a, b) => a - b);
      const none = [null, null];
      for (const walletId of walletIds)
        yield {
          wallet: idText(ID_SPACE.address, walletId),
          positions: ctf ? walletLegs(walletId, ctf.tokenIds) : none,
          migrated: migration ? walletLegs(walletId, migration.tokenIds) : none,
        };
    },
    marketLedgers: ledgersOf,
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
        const entry = counts.get(wallet)!;
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
    *fillsFrom(fromBlock) {
      for (const { key, value } of store.dbs.fills.getRange({ start: keyBytes(blockFillsKey(fromBlock)) })) {
        const block = key.readUInt32BE(0);
        for (let i = 0; i < blockFillCount(value); i++)
          yield { block, fill: decodeFillNumbers(value, blockFillOffset(value, i)) };
      }
    },
    idText: (space, id) => idText(space, id),
    keepsTrades: () => stateKeepsTrades(store),
    idNumber: idOf,
    positionsFrom(walletId, minPositions) {
      const positions: Array<{ walletId: number; tokenId: number; position: Position }> = [];
      for (const { key, value } of store.dbs.positions.getRange({ start: keyBytes(u32Key(walletId)) })) {
        const id = key.readUInt32BE(0);
        if (positions.length >= minPositions && id !== positions[positions.length - 1]!.walletId) break;
        positions.push({ walletId: id, tokenId: key.readUInt32BE(4), position: decodePosition(value) });
      }
      return positions;
    },
    negRiskEvent(marketId) {
      const bytes = store.dbs.negRiskEvents.getBinary(marketId);
      return bytes ? decodeValue<NegRiskEventRecord>(bytes) : null;
    },
    latestTagRun: () => readLatestTagRun(store),
    latestTagRunNumber: () => readLatestTagRunNumber(store),
    unknownTopics() {
      const counts: Record<string, number> = {};
      const range = { start: UNKNOWN_TOPIC_PREFIX, end: UNKNOWN_TOPIC_PREFIX + '~' };
      for (const { key, value } of store.dbs.feedAnswers.getRange(range))
        counts[String(key).slice(UNKNOWN_TOPIC_PREFIX.length)] = decodeValue<number>(value);
      return counts;
    },
    roundReport(questionId) {
      const bytes = store.dbs.feedAnswers.getBinary(roundReportKey(questionId));
      return bytes ? decodeValue<RoundReport>(bytes) : null;
    },
    feedAnswerAt(asset, ts) {
      // Keys run asset, then the update time in fixed width, then the round: every round of `ts` sorts before ';'.
      const range = { start: feedAnswerKey(asset, ts, ';'), end: asset + ':', reverse: true, limit: 1 };
      for (const { value } of store.dbs.feedAnswers.getRange(range)) return decodeValue<FeedAnswer>(value);
      return null;
    },
    board: () => readBoardInfo(store),
    boardRow(category, walletId) {
      const info = readBoardInfo(store);
      const bytes = info ? store.dbs[rowsDb(info.generation)].getBinary(rowKey(category, walletId)) : undefined;
      return bytes ? decodeRow(bytes) : null;
    },
    *boardRows(category) {
      const info = readBoardInfo(store);
      if (!info) return;
      const range = { start: rowKey(category, 0), end: rowKey(category + 1, 0) };
      for (const { key, value } of store.dbs[rowsDb(info.generation)].getRange(range))
        yield { walletId: key.readUInt32BE(1), row: decodeRow(value) };
    },
    walletResults(walletId) {
      const info = readBoardInfo(store);
      const bytes = info ? store.dbs[resultsDb(info.generation)].getBinary(resultsKey(walletId)) : undefined;
      return bytes ? decodeResults(bytes) : new Float64Array(0);
    },
    *boardResults() {
      const info = readBoardInfo(store);
      if (!info) return;
      for (const { key, value } of store.dbs[resultsDb(info.generation)].getRange({}))
        yield { walletId: key.readUInt32BE(0), results: decodeResults(value) };
    },
  };
}
