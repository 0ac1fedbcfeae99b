// The board's records as the state stores them (engine/state/boardTables.ts): a wallet's lifetime row in
// micro-units (spec 2.5; the rollup sums it, engine/rollup/boardRow.ts) and its market results packed into one
// Float64Array, RESULT_WIDTH numbers each in market key order, so that a wallet in 10,000 markets is read and summed
// in a few milliseconds with no object a result. Every number is an integer, or for `invested` a half, of
// micro-units well inside 2^53, so float64 holds it exactly.
import { assert } from '../assert.js';

/** Where a counted market's pnl makes it best or worst: its result's key, and the pnl. */
export interface RankedMarket {
  space: number;
  id: number;
  pnl: number;
}

export interface BoardRow {
  realizedPnl: number;
  unrealizedPnl: number;
  capital: number;
  buyVolume: number;
  sellVolume: number;
  shareVolume: number;
  fees: number;
  fills: number;
  marketsTraded: number;
  marketsDecided: number;
  marketsWon: number;
  marketsLost: number;
  winsUsd: number;
  lossesUsd: number;
  /** Sum over decided markets of (decision - first event), for avgHoldSeconds. */
  holdSeconds: number;
  redemptions: number;
  /** 0 when no market counts. */
  firstActivityAt: number;
  lastActivityAt: number;
  openCount: number;
  openValue: number;
  openCost: number;
  approxMarkets: number;
  best: RankedMarket | null;
  worst: RankedMarket | null;
}

export function createBoardRow(): BoardRow {
  return {
    realizedPnl: 0,
    unrealizedPnl: 0,
    capital: 0,
    buyVolume: 0,
    sellVolume: 0,
    shareVolume: 0,
    fees: 0,
    fills: 0,
    marketsTraded: 0,
    marketsDecided: 0,
    marketsWon: 0,
    marketsLost: 0,
    winsUsd: 0,
    lossesUsd: 0,
    holdSeconds: 0,
    redemptions: 0,
    firstActivityAt: 0,
    lastActivityAt: 0,
    openCount: 0,
    openValue: 0,
    openCost: 0,
    approxMarkets: 0,
    best: null,
    worst: null,
  };
}

/** Each field's offset inside a result. */
export const RESULT = {
  space: 0,
  id: 1,
  category: 2,
  settledPnl: 3,
  invested: 4,
  boughtUsd: 5,
  soldUsd: 6,
  boughtShares: 7,
  soldShares: 8,
  fees: 9,
  fills: 10,
  redemptions: 11,
  firstAt: 12,
  lastAt: 13,
  decidedAt: 14,
  openCount: 15,
  openValue: 16,
  openCost: 17,
  approx: 18,
} as const;
export const RESULT_WIDTH = 19;

export type ResultTable = Float64Array;

export const resultCount = (table: ResultTable): number => {
  assert(table.length % RESULT_WIDTH === 0, 'a result table holds whole results');
  return table.length / RESULT_WIDTH;
};
