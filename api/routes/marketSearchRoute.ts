// GET /v1/markets?q= (issue 25's search): the indexed markets whose question, slug or event slug holds every word of
// `q` (any letter case), most fills first, `limit` 1-100 (20). The first 1,000 matches in metadata order are ranked;
// `more` says there were others (a narrower search finds them). Markets the log never prepared are left out: no
// route answers for them.
import type { Static } from 'typebox';
import type { MarketSearchAnswer } from '../schemas/answerSchemas.js';
import { ApiError } from '../apiError.js';
import type { RouteRequest } from '../query/routeRequest.js';
import { clampedParam, textOf } from '../query/readQuery.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';
import { searchWords, type MarketTextIndex } from '../search/marketTextIndex.js';
import { marketListings } from '../rows/marketListings.js';
import { ERROR } from '../errorTexts.js';

const MAX_RANKED = 1000;

export function createMarketSearchRoute(ctx: RouteContext, index: MarketTextIndex) {
  return (request: RouteRequest): Static<typeof MarketSearchAnswer> => {
    const q = (textOf(request.query, 'q') ?? '').trim();
    const words = searchWords(q);
    if (q.length < 2 || q.length > 100 || words.length === 0) throw new ApiError(400, ERROR.badSearch);
    const limit = clampedParam(request.query, 'limit', 1, 100, 20);
    const { ids, more } = index.find(ctx.reads.offchainRevision(), words, MAX_RANKED);
    const found = marketListings(ctx, ids);
    return { q, block: readServedBlock(ctx.state).block, matched: found.length, more, markets: found.slice(0, limit) };
  };
}
