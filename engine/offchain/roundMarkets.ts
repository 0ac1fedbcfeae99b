// Crypto Up/Down round markets, recognised from their metadata (docs/design.md 5, crypto strikes): the venue's
// recurring series carry the asset, the round's length and its start in the slug, `<asset>-updown-<n><m|h|d>-
// <start, Unix seconds>` ("btc-updown-15m-1767200400": Bitcoin, 15 minutes from 1767200400). Outcome 0 is Up.
import type { MarketMetadata } from './marketMetadata.js';
import type { OffchainStore } from './openOffchainStore.js';
import { decodeValue } from '../state/stateCodec.js';

export interface RoundMarket {
  conditionId: string;
  eventSlug: string | null;
  /** Upper case, as the price feeds are configured: BTC, ETH, SOL, XRP. */
  asset: string;
  /** As the slug writes it: `15m`, `1h`, `4h`, `1d`. */
  interval: string;
  startTs: number;
  endTs: number;
  /** The strike the market object carries (legacy rounds' `eventMetadata.priceToBeat`), null when it has none. */
  priceToBeat: number | null;
}

const ROUND_SLUG = /^([a-z]+)-updown-(\d{1,3})([mhd])-(\d{9,11})$/;
const UNIT_SECONDS: Readonly<Record<string, number>> = { m: 60, h: 3600, d: 86_400 };

/** The round a market's metadata describes, or null for any other market. */
export function roundMarket(metadata: MarketMetadata): RoundMarket | null {
  const match = ROUND_SLUG.exec(metadata.slug ?? '');
  if (!match) return null;
  const [, asset, count, unit, start] = match as unknown as [string, string, string, string, string];
  const startTs = Number(start);
  return {
    conditionId: metadata.conditionId,
    eventSlug: metadata.eventSlug,
    asset: asset.toUpperCase(),
    interval: `${Number(count)}${unit}`,
    startTs,
    endTs: startTs + Number(count) * UNIT_SECONDS[unit]!,
    priceToBeat: metadata.priceToBeat ?? null,
  };
}

/** Every round the loaded metadata names, in condition id order. */
export function listRoundMarkets(offchain: OffchainStore): RoundMarket[] {
  const rounds: RoundMarket[] = [];
  for (const { value } of offchain.metadata.getRange({})) {
    const round = roundMarket(decodeValue<MarketMetadata>(value));
    if (round) rounds.push(round);
  }
  return rounds;
}
