// A position settled against its market's resolution (docs/design.md 3): the figures the wallet
// routes filter and sort by and the leaderboard sums, in micro-units. Pure, so the API and the board rollup
// settle a position the same way.
import { mulDivRound } from '../reducers/mulDivRound.js';
import { OPEN_THRESHOLD_MICROS, type Position } from '../reducers/position.js';
import type { MarketRecord } from '../state/marketRecords.js';

/** What the filters and sorts need, still in micro-units: cheap, so it is worked out for every position. */
export interface PositionSettlement {
  resolved: boolean;
  /** Settlement numerator/denominator of this outcome, or null while unresolved. */
  settle: [number, number] | null;
  settledPnl: number;
  /** Held (at least the open threshold) in an unresolved market. */
  open: boolean;
  exitAt: number | null;
}

export function settlement(position: Position, market: MarketRecord | null, outcomeIndex: number): PositionSettlement {
  const resolved =
    market !== null && market.payoutDenominator > 0 && market.payoutNumerators !== null && outcomeIndex >= 0;
  const settle: [number, number] | null = resolved
    ? [market.payoutNumerators![outcomeIndex] ?? 0, market.payoutDenominator]
    : null;
  // The payout of the shares still held: a negative balance (history tally did not see) holds nothing (spec 2.3).
  const settledPnl =
    position.realizedPnl +
    (settle ? mulDivRound(Math.max(position.shares, 0), settle[0], settle[1]) - position.costBasis : 0);
  const holding = position.shares >= OPEN_THRESHOLD_MICROS;
  let exitAt: number | null = null;
  if (resolved) {
    // Held into the resolution (still held, or it dropped below 0.1 share after it): the resolution time.
    const heldIntoIt = position.lowSinceTs === 0 || position.lowSinceTs > market.resolvedAt;
    exitAt = heldIntoIt ? market.resolvedAt : position.lastTradeAt;
  } else if (!holding) {
    exitAt = position.lastTradeAt;
  }
  return { resolved, settle, settledPnl, open: !resolved && holding, exitAt };
}
