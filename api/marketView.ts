// The spec 2.1 Market object of a condition, from the loaded market metadata (null fields when none), and the
// category a filter compares (`Other` for none).
import type { MarketMetadata } from '../engine/offchain/marketMetadata.js';

export type MarketView = Pick<
  MarketMetadata,
  'question' | 'slug' | 'eventSlug' | 'image' | 'category' | 'outcomes' | 'negRisk'
>;

export function marketView(metadata: MarketMetadata | null, negRisk: boolean): MarketView {
  return {
    question: metadata?.question ?? null,
    slug: metadata?.slug ?? null,
    eventSlug: metadata?.eventSlug ?? null,
    image: metadata?.image ?? null,
    category: metadata?.category ?? null,
    outcomes: metadata?.outcomes ?? null,
    negRisk: metadata?.negRisk ?? negRisk,
  };
}
