// A wallet's leaderboard row (spec 2.5) in micro-units: the sums of DESIGN.md 4 over its market results, for the
// lifetime (the board row) or a window. The ratios (roi, winRate, profitFactor, averages) are divisions made at
// the API edge from these sums.
import { ID_SPACE } from '../log/idDictionary.js';
import { GLOBAL } from './boardCategories.js';
import type { MarketResult } from './marketResult.js';

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

/** True when the market is counted in full in the window (decided inside it; every market in the lifetime). */
export function countsIn(result: MarketResult, window: BoardWindow): boolean {
  if (window.all) return true;
  return result.decidedAt !== 0 && result.decidedAt >= window.from && (window.to === null || result.decidedAt < window.to);
}

/**
 * True when the market had an event in the window. Exact for windows that end now (its last event is inside);
 * for an earlier window, its events' span [first, last] overlaps the window (the state keeps each position's
 * first and last event, not every event's time).
 */
export function tradedIn(result: MarketResult, window: BoardWindow): boolean {
  if (window.all) return true;
  return result.lastAt >= window.from && (window.to === null || result.firstAt < window.to);
}

/** Adds one market result to the row as the window counts it; false when the window leaves it out altogether. */
export function addResult(row: BoardRow, result: MarketResult, window: BoardWindow): boolean {
  const counted = countsIn(result, window);
  const traded = tradedIn(result, window);
  const open = window.endsNow && result.openCount > 0;
  if (!counted && !traded && !open) return false;
  if (traded) row.marketsTraded++;
  if (row.firstActivityAt === 0 || result.firstAt < row.firstActivityAt) row.firstActivityAt = result.firstAt;
  row.lastActivityAt = Math.max(row.lastActivityAt, result.lastAt);
  if (open) {
    row.openCount += result.openCount;
    row.openValue += result.openValue;
    row.openCost += result.openCost;
    row.unrealizedPnl += result.openValue - result.openCost;
  }
  if (!counted) return true;
  const pnl = result.settledPnl;
  row.realizedPnl += pnl;
  row.capital += result.invested;
  row.buyVolume += result.boughtUsd;
  row.sellVolume += result.soldUsd;
  row.shareVolume += result.boughtShares + result.soldShares;
  row.fees += result.fees;
  row.fills += result.fills;
  row.redemptions += result.redemptions;
  if (result.approx) row.approxMarkets++;
  if (result.decidedAt === 0) return true;
  row.marketsDecided++;
  row.holdSeconds += result.decidedAt - result.firstAt;
  if (pnl > 0) {
    row.marketsWon++;
    row.winsUsd += pnl;
  } else if (pnl < 0) {
    row.marketsLost++;
    row.lossesUsd += pnl;
  }
  // best and worst name a market with metadata: a condition, not a token no condition explains. Ties keep the
  // first in key order, so the choice never depends on anything but the results.
  if (result.space === ID_SPACE.condition) {
    if (row.best === null || pnl > row.best.pnl) row.best = { space: result.space, id: result.id, pnl };
    if (row.worst === null || pnl < row.worst.pnl) row.worst = { space: result.space, id: result.id, pnl };
  }
  return true;
}

/** A wallet's rows in the window: `global`, and one per category with a market the window takes in. */
export function sumResults(results: readonly MarketResult[], window: BoardWindow): Map<number, BoardRow> {
  const rows = new Map<number, BoardRow>();
  for (const result of results) {
    for (const category of [GLOBAL, result.category]) {
      const row = rows.get(category) ?? createBoardRow();
      if (addResult(row, result, window)) rows.set(category, row);
    }
  }
  return rows;
}
