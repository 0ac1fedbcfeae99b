// A crypto strike row (docs/design.md 5 and 6): a round with its strike and close from the most exact source the log
// holds, named in `source`: `reporter` (a Protocol V2 round's RequestReported start and end prices, 18 decimals),
// else `metadata` (the strike the market object carries, `eventMetadata.priceToBeat`; the close from the feed), else
// `feed` (the push feed's last answers at or before its start and end, 8 decimals); the outcome they imply (Up when
// the close is at or above the strike, the venue's rule) and the market's own resolution beside it.
import type { RoundMarket } from '../../engine/offchain/roundMarkets.js';
import type { FeedAnswer, MarketRecord, RoundReport } from '../../engine/state/marketRecords.js';

const FEED_SCALE = 1e8;
const REPORT_SCALE = 1e18;

export type StrikeSource = 'reporter' | 'metadata' | 'feed';

export interface StrikeRow extends Omit<RoundMarket, 'priceToBeat'> {
  strike: number | null;
  close: number | null;
  outcome: 'Up' | 'Down' | null;
  /** How the market resolved (outcome 0 Up, 1 Down; a split payout, or none yet: null). */
  resolution: 'Up' | 'Down' | null;
  /** The feed the strike was read from (null for a reported round). */
  feed: string | null;
  source: StrikeSource;
}

/** A reported price word (int192, two's complement in 256 bits) in USD. */
function reportedUsd(word: string): number {
  return Number(BigInt.asIntN(256, BigInt('0x' + word))) / REPORT_SCALE;
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
  report: RoundReport | null = null,
): StrikeRow {
  const { priceToBeat, ...shown } = round;
  const payouts = market && market.payoutDenominator > 0 ? market.payoutNumerators : null;
  const resolution = payouts === null || payouts[0] === payouts[1] ? null : payouts[0]! > payouts[1]! ? 'Up' : 'Down';
  if (report) {
    const [start, end] = [reportedUsd(report.startPrice), reportedUsd(report.endPrice)];
    const up =
      BigInt.asIntN(256, BigInt('0x' + report.endPrice)) >= BigInt.asIntN(256, BigInt('0x' + report.startPrice));
    return {
      ...shown,
      strike: start,
      close: end,
      outcome: up ? 'Up' : 'Down',
      resolution,
      feed: null,
      source: 'reporter',
    };
  }
  const strike = answerAt(round.startTs);
  const close = round.endTs <= now ? answerAt(round.endTs) : null;
  const closeUsd = close && close.answer / FEED_SCALE;
  if (priceToBeat !== null) {
    return {
      ...shown,
      strike: priceToBeat,
      close: closeUsd,
      outcome: closeUsd === null ? null : closeUsd >= priceToBeat ? 'Up' : 'Down',
      resolution,
      feed: close?.feed ?? null,
      source: 'metadata',
    };
  }
  return {
    ...shown,
    strike: strike && strike.answer / FEED_SCALE,
    close: closeUsd,
    outcome: strike && close ? (close.answer >= strike.answer ? 'Up' : 'Down') : null,
    resolution,
    feed: strike?.feed ?? close?.feed ?? null,
    source: 'feed',
  };
}
