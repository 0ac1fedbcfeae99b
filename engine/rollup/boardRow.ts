// A wallet's leaderboard row (spec 2.5) in micro-units: the sums of docs/design.md 4 over its market results, for the
// lifetime (the board row) or a window. The ratios (roi, winRate, profitFactor, averages) are divisions made at
// the API edge from these sums.
import { ID_SPACE } from '../log/idDictionary.js';
import { GLOBAL } from './boardCategories.js';
import { createBoardRow, RESULT as R, RESULT_WIDTH, type BoardRow, type ResultTable } from '../state/boardRecords.js';

/**
 * The markets a row takes in (docs/design.md 4, spec 4.3): those decided inside [from, to), and, when the window ends
 * now, the open markets with an event inside it; the lifetime (`all`) takes every market, which is the same rule
 * over a window from the wallet's first event to now.
 */
export interface BoardWindow {
  all: boolean;
  from: number;
  /** Exclusive; null: through the rollup's block. */
  to: number | null;
  endsNow: boolean;
}

/**
 * The version of the rules rows are summed by, kept with each board: a board summed by other rules is rolled up
 * again, however current its block. 2: the window rule above (issue 22), where open markets' partial exits stopped
 * counting as realized. 3: a migrated market's positions on both ledgers are one market (docs/design.md 10).
 */
export const BOARD_RULES = 3;

export const LIFETIME: BoardWindow = { all: true, from: 0, to: null, endsNow: true };

/**
 * True when the window takes in the market at `at`. A market is decided (resolved, or every position exited) or
 * open; an open market's last event is inside a window that ends now exactly when it is at or after `from`.
 */
function inWindow(table: ResultTable, at: number, window: BoardWindow): boolean {
  if (window.all) return true;
  const decidedAt = table[at + R.decidedAt]!;
  if (decidedAt === 0) return window.endsNow && table[at + R.lastAt]! >= window.from;
  return decidedAt >= window.from && (window.to === null || decidedAt < window.to);
}

/**
 * Adds the result at `at` to the row when the window takes it in (false otherwise). Every sum covers the same
 * markets, so a window holding all of a wallet's activity gives its lifetime row and roi's capital is the capital
 * of the PnL it divides. An open market's whole PnL so far (its partial exits' settled PnL and the open book at
 * the marks) is unrealized; a decided market's settled PnL is realized.
 */
function addResult(row: BoardRow, table: ResultTable, at: number, window: BoardWindow): boolean {
  if (!inWindow(table, at, window)) return false;
  const firstAt = table[at + R.firstAt]!;
  const pnl = table[at + R.settledPnl]!;
  row.marketsTraded++;
  if (row.firstActivityAt === 0 || firstAt < row.firstActivityAt) row.firstActivityAt = firstAt;
  row.lastActivityAt = Math.max(row.lastActivityAt, table[at + R.lastAt]!);
  row.capital += table[at + R.invested]!;
  row.buyVolume += table[at + R.boughtUsd]!;
  row.sellVolume += table[at + R.soldUsd]!;
  row.shareVolume += table[at + R.boughtShares]! + table[at + R.soldShares]!;
  row.fees += table[at + R.fees]!;
  row.fills += table[at + R.fills]!;
  row.redemptions += table[at + R.redemptions]!;
  if (table[at + R.approx] === 1) row.approxMarkets++;
  const decidedAt = table[at + R.decidedAt]!;
  if (decidedAt === 0) {
    const openValue = table[at + R.openValue]!;
    const openCost = table[at + R.openCost]!;
    row.openCount += table[at + R.openCount]!;
    row.openValue += openValue;
    row.openCost += openCost;
    row.unrealizedPnl += pnl + openValue - openCost;
    return true;
  }
  row.realizedPnl += pnl;
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
