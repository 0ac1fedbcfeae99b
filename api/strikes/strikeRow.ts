// A crypto strike row (DESIGN.md 5): a round with its strike and close, the feed's last answers at or before
// its start and end, the outcome they imply (Up when the close is at or above the strike, the venue's rule) and
// the market's own resolution beside it. Answers are shown in USD: Chainlink's USD pairs carry 8 decimals.
import type { RoundMarket } from '../../engine/offchain/roundMarkets.js';
import type { FeedAnswer, MarketRecord } from '../../engine/state/marketRecords.js';

const FEED_SCALE = 1e8;

export interface StrikeRow extends RoundMarket {
  strike: number | null;
  close: number | null;
  outcome: 'Up' | 'Down' | null;
  /** How the market resolved (outcome 0 Up, 1 Down; a split payout, or none yet: null). */
  resolution: 'Up' | 'Down' | null;
  /** The feed the strike was read from. */
  feed: string | null;
}

/**
 * `answerAt` gives the asset's last answer updated at or before a time; `now` is the served block's time: a
 * round that has not ended by then has no close yet (a later answer could still come before its end).
 */
export function strikeRow(
  round: RoundMarket,
  market: MarketRecord | null,
  now: number,
  answerAt: (ts: number) => FeedAnswer | null,
): StrikeRow {
  const strike = answerAt(round.startTs);
  const close = round.endTs <= now ? answerAt(round.endTs) : null;
  const payouts = market && market.payoutDenominator > 0 ? market.payoutNumerators : null;
  const resolution = payouts === null || payouts[0] === payouts[1] ? null : payouts[0]! > payouts[1]! ? 'Up' : 'Down';
  return {
    ...round,
    strike: strike && strike.answer / FEED_SCALE,
    close: close && close.answer / FEED_SCALE,
    outcome: strike && close ? (close.answer >= strike.answer ? 'Up' : 'Down') : null,
    resolution,
    feed: strike?.feed ?? close?.feed ?? null,
  };
}
