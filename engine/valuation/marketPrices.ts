// Prices as exact ratios of integers (a last fill's usd/shares, a payout's numerator/denominator, a decimal
// price), and the marks a market is valued at by default: shared by the market routes and the board rollup.
import { mulDivRound } from '../reducers/mulDivRound.js';
import type { Position } from '../reducers/position.js';
import type { MarketRecord } from '../state/marketRecords.js';

/** A price as numerator / denominator, both safe integers. */
export type Price = readonly [numerator: number, denominator: number];

/**
 * An outcome's own mark (docs/design.md 3; spec 2.3): its payout once resolved, else its last fill's
 * price, with the fill's time; null for an outcome that never traded. The open-positions rows show exactly this.
 */
export function outcomeMark(market: MarketRecord, outcome: number): { price: Price; ts: number } | null {
  if (market.payoutDenominator > 0 && market.payoutNumerators !== null) {
    return { price: [market.payoutNumerators[outcome] ?? 0, market.payoutDenominator], ts: market.resolvedAt };
  }
  const last = market.marks[outcome];
  return last && last.shares > 0 ? { price: [last.usd, last.shares], ts: last.ts } : null;
}

/**
 * The marks a market is valued at when none are given, where every leg needs a price (a market's traders and
 * holder lines, the board's open value): each outcome's own mark (outcomeMark); an outcome that never traded takes
 * the complement of the other's (a binary market's prices sum to 1), and a market with no fill at all is valued at
 * 0.5 each, the price a split books its shares at.
 */
export function defaultMarks(market: MarketRecord): Price[] {
  const own = [0, 1].map((i) => outcomeMark(market, i)?.price ?? null);
  return own.map((price, i) => {
    if (price) return price;
    const other = own[1 - i];
    return other ? ([other[1] - other[0], other[1]] as const) : ([1, 2] as const);
  });
}

/** A leg's value at the mark: what its shares would fetch (a negative balance holds nothing, spec 2.3). */
export function legValue(position: Position, mark: Price): number {
  return mulDivRound(Math.max(position.shares, 0), mark[0], mark[1]);
}
