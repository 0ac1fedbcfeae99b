// The market fields of a Data API row (docs/venue-api.md): its metadata's title, slug, icon (its image when it has
// no icon of its own), event slug and the outcome's name, "" for each the metadata lacks.
import type { MarketMetadata } from '../../engine/offchain/marketMetadata.js';

export function venueMarketFields(metadata: MarketMetadata | null, outcomeIndex: number) {
  return {
    title: metadata?.question ?? '',
    slug: metadata?.slug ?? '',
    icon: metadata?.icon ?? metadata?.image ?? '',
    eventSlug: metadata?.eventSlug ?? '',
    outcome: metadata?.outcomes?.[outcomeIndex] ?? '',
    outcomeIndex,
  };
}
