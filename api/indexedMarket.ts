// A market route's market: the condition's record with its metadata, or 404 `market not indexed` (docs/design.md 5)
// for a condition the log never prepared. A migration condition's market is its legacy CTF market (docs/design.md 10):
// asked by either id, the answer is that market's, with both ledgers' positions (StateReader.marketHolders).
import { ApiError } from './apiError.js';
import { ERROR } from './errorTexts.js';
import type { MarketEntry } from './stateReads.js';
import type { MarketRecord } from '../engine/state/marketRecords.js';
import type { RouteContext } from './routeContext.js';

export function indexedMarket(ctx: RouteContext, conditionId: string): MarketEntry & { market: MarketRecord } {
  const asked = ctx.reads.market(conditionId);
  if (asked.market === null) throw new ApiError(404, ERROR.marketNotIndexed);
  const [primary] = ctx.state.marketLedgers(asked.market.conditionId);
  const entry = primary === asked.market.conditionId ? asked : ctx.reads.market(primary!);
  return entry as MarketEntry & { market: MarketRecord };
}
