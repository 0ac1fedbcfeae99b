// The leaderboard's tables (docs/design.md 4, Rollup): per wallet its market results (one value), and per category and
// wallet its lifetime board row, written by a rollup as of one block. Two generations of tables: a rollup fills the one
// not being read, then switches the board record to it in one put, so a reader sees one rollup whole, never a mix.
import { createBoardRow, RESULT_WIDTH, type BoardRow, type ResultTable } from './boardRecords.js';
import type { StateStore } from './openStateStore.js';
import { decodeValue, encodeValue } from './stateCodec.js';
import { BOARD_CHUNK_WRITES } from '../limits.js';
import { assert } from '../assert.js';
import { ID_SPACE } from '../log/idDictionary.js';

/** The rollup a board's tables hold. */
export interface BoardInfo {
  /** Which pair of tables holds it (0 or 1). */
  generation: number;
  /** The block it is as of, and that block's time: "now" for its windows (`asOf`). */
  block: number;
  asOf: number;
  /**
   * The digest of the market metadata it read (categories and best and worst markets come from there;
   * engine/offchain/offchainDigest.ts): the same board on every machine holding the same state and metadata.
   */
  metadata: string;
  /** The rules its rows were summed by (BOARD_RULES; absent before version 2): a board of others is rolled up again. */
  rules?: number;
  wallets: number;
  results: number;
}

const BOARD_KEY = 'board';
export const BOARD_DBS = ['boardResults0', 'boardResults1', 'boardRows0', 'boardRows1'] as const;
export type BoardDb = (typeof BOARD_DBS)[number];
export const resultsDb = (generation: number): BoardDb => (generation === 0 ? 'boardResults0' : 'boardResults1');
export const rowsDb = (generation: number): BoardDb => (generation === 0 ? 'boardRows0' : 'boardRows1');

export function readBoardInfo(store: StateStore): BoardInfo | null {
  const bytes = boardInfoBytes(store);
  if (!bytes) return null;
  const info = decodeValue<BoardInfo>(bytes);
  // createBoardWriter's finish: one of the two generations, as of a folded block.
  assert(info.generation === 0 || info.generation === 1, 'the board is in one of its two generations');
  assert(info.block >= 0 && info.wallets >= 0 && info.results >= 0, 'the board is of a block, counting its rows');
  return info;
}

/** The board's record as stored (createBoardReads decodes it only when it changed). */
export function boardInfoBytes(store: StateStore): Buffer | undefined {
  return store.dbs.meta.getBinary(BOARD_KEY);
}

/** A wallet's results: its id (all of them in one value, read with one get). */
export function resultsKey(walletId: number): Buffer {
  assert(walletId >>> 0 === walletId, "a wallet's results are keyed by its u32 id");
  const key = Buffer.alloc(4);
  key.writeUInt32BE(walletId, 0);
  return key;
}

/** A board row: its category, then its wallet's id, so a category's rows are one range. */
export function rowKey(category: number, walletId: number): Buffer {
  // A byte, which an assignment would wrap silently; boardRows reads up to the next category's first key.
  assert(Number.isInteger(category) && category >= 0 && category < 255, 'a board row is of a category (a byte)');
  const key = Buffer.alloc(5);
  key[0] = category;
  key.writeUInt32BE(walletId, 1);
  return key;
}

/** A wallet's results as stored: the table's bytes. */
export function encodeResults(table: ResultTable): Buffer {
  assert(table.length % RESULT_WIDTH === 0, "a wallet's results are whole results");
  return Buffer.from(table.buffer, table.byteOffset, table.byteLength);
}

/** A view of `bytes` (the caller's own copy, as getBinary gives), copied only when it is not 8-byte aligned. */
export function decodeResults(bytes: Buffer): ResultTable {
  assert(bytes.length % (RESULT_WIDTH * 8) === 0, "a wallet's stored results are whole results");
  if (bytes.byteOffset % 8 === 0) return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8);
  const table = new Float64Array(bytes.length / 8);
  new Uint8Array(table.buffer).set(bytes);
  return table;
}

const ROW_FIELDS = [
  'realizedPnl',
  'unrealizedPnl',
  'capital',
  'buyVolume',
  'sellVolume',
  'shareVolume',
  'fees',
  'fills',
  'marketsTraded',
  'marketsDecided',
  'marketsWon',
  'marketsLost',
  'winsUsd',
  'lossesUsd',
  'holdSeconds',
  'redemptions',
  'firstActivityAt',
  'lastActivityAt',
  'openCount',
  'openValue',
  'openCost',
  'approxMarkets',
] as const satisfies readonly (keyof BoardRow)[];
const RANKED = ['best', 'worst'] as const;
/** A row as stored: its fields, then best and worst as (space, id, pnl). */
const ROW_BYTES = (ROW_FIELDS.length + 6) * 8;

/**
 * What every row the rollup sums holds (engine/rollup/boardRow.ts): the markets won and lost are among those
 * decided, which are among those traded; best and worst are set together, from conditions, best at or above worst.
 */
const isSummedRow = (row: BoardRow): boolean =>
  row.marketsWon + row.marketsLost <= row.marketsDecided &&
  row.marketsDecided <= row.marketsTraded &&
  (row.best === null) === (row.worst === null) &&
  (row.best === null || row.best.pnl >= row.worst!.pnl);

function encodeRow(row: BoardRow): Buffer {
  assert(isSummedRow(row), 'a board row written is a sum of results');
  const bytes = Buffer.alloc(ROW_BYTES);
  ROW_FIELDS.forEach((field, i) => bytes.writeDoubleLE(row[field], i * 8));
  RANKED.forEach((field, i) => {
    const market = row[field];
    // Best and worst name a market with metadata: a condition (a stored space of -1 reads as none).
    assert(market === null || market.space === ID_SPACE.condition, "a row's best and worst are conditions");
    const at = (ROW_FIELDS.length + 3 * i) * 8;
    bytes.writeDoubleLE(market ? market.space : -1, at);
    bytes.writeDoubleLE(market ? market.id : 0, at + 8);
    bytes.writeDoubleLE(market ? market.pnl : 0, at + 16);
  });
  return bytes;
}

export function decodeRow(bytes: Buffer): BoardRow {
  assert(bytes.length === ROW_BYTES, 'a board row is its fields and two ranked markets');
  const row = createBoardRow();
  ROW_FIELDS.forEach((field, i) => {
    row[field] = bytes.readDoubleLE(i * 8);
    // Sums of integers (and halves) of micro-units, counts and times.
    assert(Number.isFinite(row[field]), "a board row's figures are finite");
  });
  RANKED.forEach((field, i) => {
    const at = (ROW_FIELDS.length + 3 * i) * 8;
    const space = bytes.readDoubleLE(at);
    assert(space === -1 || space === ID_SPACE.condition, "a stored row's ranked market is a condition or none");
    row[field] = space < 0 ? null : { space, id: bytes.readDoubleLE(at + 8), pnl: bytes.readDoubleLE(at + 16) };
  });
  assert(isSummedRow(row), 'a board row read is as written');
  return row;
}

export interface BoardWriter {
  /** One wallet's results and its rows by category (written in chunks, each in one transaction). */
  putWallet(walletId: number, results: ResultTable, rows: ReadonlyMap<number, BoardRow>): void;
  /** Writes what is left and switches readers to this generation. */
  finish(info: Omit<BoardInfo, 'generation'>): BoardInfo;
}

/** Empties the generation readers are not using and writes a rollup into it. */
export function createBoardWriter(store: StateStore): BoardWriter {
  const generation = 1 - (readBoardInfo(store)?.generation ?? 1);
  // The one readers are not using: the first rollup fills generation 0.
  assert(generation === 0 || generation === 1, 'a rollup writes one of the two generations');
  const results = store.dbs[resultsDb(generation)];
  const rows = store.dbs[rowsDb(generation)];
  results.clearSync();
  rows.clearSync();
  let pending: Array<[db: typeof results, key: Buffer, value: Buffer]> = [];
  /** The wallets and results put so far, and the last wallet's id: what finish's record counts. */
  let wallets = 0;
  let resultsPut = 0;
  let lastWallet = -1;
  let finished = false;
  const flush = () => {
    const writes = pending;
    pending = [];
    // Flushed once full: at most a wallet's results and a row a category (a byte) past the chunk's size.
    assert(writes.length < BOARD_CHUNK_WRITES + 1 + 256, 'a chunk of the board is bounded');
    store.env.transactionSync(() => {
      for (const [db, key, value] of writes) void db.put(key, value);
    });
  };
  return {
    putWallet(walletId, walletResults, walletRows) {
      // The rollup walks the positions wallet first, in id order: each wallet once.
      assert(!finished && walletId > lastWallet, 'wallets are put in id order, each once, before the finish');
      lastWallet = walletId;
      wallets++;
      resultsPut += walletResults.length / RESULT_WIDTH;
      pending.push([results, resultsKey(walletId), encodeResults(walletResults)]);
      for (const [category, row] of walletRows) pending.push([rows, rowKey(category, walletId), encodeRow(row)]);
      if (pending.length >= BOARD_CHUNK_WRITES) flush();
    },
    finish(rest) {
      // The record counts what was put: a reader trusts it for the board's size.
      assert(!finished && rest.wallets === wallets && rest.results === resultsPut, 'the board counts what it holds');
      finished = true;
      const info: BoardInfo = { generation, ...rest };
      flush();
      store.env.transactionSync(() => {
        void store.dbs.meta.put(BOARD_KEY, encodeValue(info));
      });
      return info;
    },
  };
}
