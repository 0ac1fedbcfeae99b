// A wallet's leaderboard row (spec 2.5) in micro-units: the sums of DESIGN.md 4 over its market results, for the
// lifetime (the board row) or a window. The ratios (roi, winRate, profitFactor, averages) are divisions made at
// the API edge from these sums.
import { ID_SPACE } from '../log/idDictionary.js';
import { GLOBAL } from './boardCategories.js';
import { RESULT as R, RESULT_WIDTH, type ResultTable } from './resultTable.js';

/** Where a counted market's pnl makes it best or worst: its result's key, and the pnl. */
export interface RankedMarket { space: number; id: number; pnl: number }

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

/**
 * What a row sums (spec 4.3 rules): markets decided in [from, to) count in full; the open book only when the
 * window ends now; the lifetime (`all`) counts every market.
 */
export interface BoardWindow {
  all: boolean;
  from: number;
  /** Exclusive; null: through the rollup's block. */
  to: number | null;
  endsNow: boolean;
}

export const LIFETIME: BoardWindow = { all: true, from: 0, to: null, endsNow: true };

export function createBoardRow(): BoardRow {
  return {
    realizedPnl: 0, unrealizedPnl: 0, capital: 0, buyVolume: 0, sellVolume: 0, shareVolume: 0, fees: 0, fills: 0,
    marketsTraded: 0, marketsDecided: 0, marketsWon: 0, marketsLost: 0, winsUsd: 0, lossesUsd: 0, holdSeconds: 0,
    redemptions: 0, firstActivityAt: 0, lastActivityAt: 0, openCount: 0, openValue: 0, openCost: 0, approxMarkets: 0,
    best: null, worst: null,
  };
}

/** True when the result at `at` is counted in full in the window (decided inside it; every market in the lifetime). */
function countsIn(table: ResultTable, at: number, window: BoardWindow): boolean {
  if (window.all) return true;
  const decidedAt = table[at + R.decidedAt]!;
  return decidedAt !== 0 && decidedAt >= window.from && (window.to === null || decidedAt < window.to);
}

/**
 * True when the market had an event in the window. Exact for windows that end now (its last event is inside);
 * for an earlier window, its events' span [first, last] overlaps the window (the state keeps each position's
 * first and last event, not every event's time).
 */
function tradedIn(table: ResultTable, at: number, window: BoardWindow): boolean {
  if (window.all) return true;
  return table[at + R.lastAt]! >= window.from && (window.to === null || table[at + R.firstAt]! < window.to);
}

/** Adds the result at `at` to the row as the window counts it; false when the window leaves it out altogether. */
function addResult(row: BoardRow, table: ResultTable, at: number, window: BoardWindow): boolean {
  const counted = countsIn(table, at, window);
  const traded = tradedIn(table, at, window);
  const open = window.endsNow && table[at + R.openCount]! > 0;
  if (!counted && !traded && !open) return false;
  const firstAt = table[at + R.firstAt]!;
  if (traded) row.marketsTraded++;
  if (row.firstActivityAt === 0 || firstAt < row.firstActivityAt) row.firstActivityAt = firstAt;
  row.lastActivityAt = Math.max(row.lastActivityAt, table[at + R.lastAt]!);
  if (open) {
    row.openCount += table[at + R.openCount]!;
    row.openValue += table[at + R.openValue]!;
    row.openCost += table[at + R.openCost]!;
    row.unrealizedPnl += table[at + R.openValue]! - table[at + R.openCost]!;
  }
  if (!counted) return true;
  const pnl = table[at + R.settledPnl]!;
  row.realizedPnl += pnl;
  row.capital += table[at + R.invested]!;
  row.buyVolume += table[at + R.boughtUsd]!;
  row.sellVolume += table[at + R.soldUsd]!;
  row.shareVolume += table[at + R.boughtShares]! + table[at + R.soldShares]!;
  row.fees += table[at + R.fees]!;
  row.fills += table[at + R.fills]!;
  row.redemptions += table[at + R.redemptions]!;
  if (table[at + R.approx] === 1) row.approxMarkets++;
  const decidedAt = table[at + R.decidedAt]!;
  if (decidedAt === 0) return true;
  row.marketsDecided++;
  row.holdSeconds += decidedAt - firstAt;
  if (pnl > 0) {
    row.marketsWon++;
    row.winsUsd += pnl;
  } else if (pnl < 0) {
    row.marketsLost++;
    row.lossesUsd += pnl;
  }
  // best and worst name a market with metadata: a condition, not a token no condition explains. Ties keep the
  // first in key order, so the choice never depends on anything but the results.
  if (table[at + R.space] === ID_SPACE.condition) {
    const id = table[at + R.id]!;
    if (row.best === null || pnl > row.best.pnl) row.best = { space: ID_SPACE.condition, id, pnl };
    if (row.worst === null || pnl < row.worst.pnl) row.worst = { space: ID_SPACE.condition, id, pnl };
  }
  return true;
}

/** A wallet's rows in the window: `global`, and one per category with a market the window takes in. */
export function sumResults(table: ResultTable, window: BoardWindow): Map<number, BoardRow> {
  const rows = new Map<number, BoardRow>();
  const add = (category: number, at: number) => {
    const row = rows.get(category) ?? createBoardRow();
    if (addResult(row, table, at, window)) rows.set(category, row);
  };
  for (let at = 0; at < table.length; at += RESULT_WIDTH) {
    add(GLOBAL, at);
    add(table[at + R.category]!, at);
  }
  return rows;
}
