// The board's tables through the read API (stateReader.ts): the rollup readers see (boardTables.ts), its rows and
// its market results.
import { assert } from '../assert.js';
import type { BoardRow, ResultTable } from './boardRecords.js';
import {
  boardInfoBytes,
  decodeResults,
  decodeRow,
  readBoardInfo,
  resultsDb,
  resultsKey,
  rowKey,
  rowsDb,
  type BoardInfo,
} from './boardTables.js';
import type { StateStore } from './openStateStore.js';
import { decodedOnChange } from './decodedOnChange.js';
import { decodeValue } from './stateCodec.js';

export interface BoardReads {
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

export function createBoardReads(store: StateStore): BoardReads {
  // Asked for by every request (the answers' generation): decoded only when a rollup changed it.
  const board = decodedOnChange<BoardInfo | null>(
    () => boardInfoBytes(store),
    (bytes) => decodeValue<BoardInfo>(bytes),
    null,
  );
  return {
    board,
    boardRow(category, walletId) {
      const info = readBoardInfo(store);
      const bytes = info ? store.dbs[rowsDb(info.generation)].getBinary(rowKey(category, walletId)) : undefined;
      return bytes ? decodeRow(bytes) : null;
    },
    *boardRows(category) {
      const info = readBoardInfo(store);
      if (!info) return;
      const range = { start: rowKey(category, 0), end: rowKey(category + 1, 0) };
      let previous = -1;
      for (const { key, value } of store.dbs[rowsDb(info.generation)].getRange(range)) {
        // rowKey: the category's byte, then the wallet's id; a rollup puts each wallet's row once.
        assert(key.length === 5 && key[0] === category, "a category's range holds its rows");
        const walletId = key.readUInt32BE(1);
        assert(walletId > previous, "a category's rows come in wallet id order");
        previous = walletId;
        yield { walletId, row: decodeRow(value) };
      }
    },
    walletResults(walletId) {
      const info = readBoardInfo(store);
      const bytes = info ? store.dbs[resultsDb(info.generation)].getBinary(resultsKey(walletId)) : undefined;
      return bytes ? decodeResults(bytes) : new Float64Array(0);
    },
    *boardResults() {
      const info = readBoardInfo(store);
      if (!info) return;
      let wallets = 0;
      for (const { key, value } of store.dbs[resultsDb(info.generation)].getRange({})) {
        // resultsKey: the wallet's id alone.
        assert(key.length === 4, "a wallet's results are keyed by its id");
        wallets++;
        yield { walletId: key.readUInt32BE(0), results: decodeResults(value) };
      }
      // The generation was emptied before its rollup, whose record counts the wallets it put.
      assert(wallets === info.wallets, "the board's results are its record's wallets");
    },
  };
}
