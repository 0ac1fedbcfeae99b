// A market route's market: the condition's record with its metadata, or 404 `market not indexed` (DESIGN.md 5)
// for a condition the log never prepared.
import { ApiError } from './apiError.js';
import { ERROR } from './errorTexts.js';
import type { MarketEntry } from './stateReads.js';
import type { MarketRecord } from '../engine/state/marketRecords.js';
import type { RouteContext } from './routeContext.js';

export function indexedMarket(ctx: RouteContext, conditionId: string): MarketEntry & { market: MarketRecord } {
  const entry = ctx.reads.market(conditionId);
  if (entry.market === null) throw new ApiError(404, ERROR.marketNotIndexed);
  return entry as MarketEntry & { market: MarketRecord };
}
