// Prices as exact ratios of integers (a last fill's usd/shares, a payout's numerator/denominator, a decimal
// price), and the marks a market is valued at by default: shared by the market routes and the board rollup.
import { mulDivRound } from '../reducers/mulDivRound.js';
import type { Position } from '../reducers/position.js';
import type { MarketRecord } from '../state/marketRecords.js';

/** A price as numerator / denominator, both safe integers. */
export type Price = readonly [numerator: number, denominator: number];

/**
 * The marks a market is valued at when none are given: the payout once resolved, else each outcome's last fill;
 * an outcome that never traded takes the complement of the other's (a binary market's prices sum to 1), and a
 * market with no fill at all is valued at 0.5 each, the price a split books its shares at.
 */
export function defaultMarks(market: MarketRecord): Price[] {
  if (market.payoutDenominator > 0 && market.payoutNumerators !== null) {
    return [0, 1].map((i) => [market.payoutNumerators![i] ?? 0, market.payoutDenominator] as const);
  }
  const last = [0, 1].map((i) => {
    const mark = market.marks[i];
    return mark && mark.shares > 0 ? ([mark.usd, mark.shares] as const) : null;
  });
  return last.map((price, i) => {
    if (price) return price;
    const other = last[1 - i];
    return other ? ([other[1] - other[0], other[1]] as const) : ([1, 2] as const);
  });
}

/** A leg's value at the mark: what its shares would fetch (a negative balance holds nothing, spec 2.3). */
export function legValue(position: Position, mark: Price): number {
  return mulDivRound(Math.max(position.shares, 0), mark[0], mark[1]);
}
