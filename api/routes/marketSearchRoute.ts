// GET /v1/markets?q= (issue 25's search): the indexed markets whose question, slug or event slug holds every word of
// `q` (any letter case), most fills first, `limit` 1-100 (20). The first 1,000 matches in metadata order are ranked;
// `more` says there were others (a narrower search finds them). Markets the log never prepared are left out: no
// route answers for them.
import { MarketSearchAnswer } from '../schemas/answerSchemas.js';
import { ApiError } from '../apiError.js';
import { rowsParam, textParam } from '../query/queryParams.js';
import { PAGE_ROWS } from '../apiLimits.js';
import { readServedBlock } from '../readServedState.js';
import { createMarketTextIndex, searchWords } from '../search/marketTextIndex.js';
import { marketListings } from '../rows/marketListings.js';
import { ERROR } from '../errorTexts.js';
import { defineRoute } from './route.js';
import { MAX_RANKED } from '../apiLimits.js';

export const marketSearchRoute = defineRoute({
  pattern: '/v1/markets',
  operationId: 'searchMarkets',
  tag: 'Markets',
  summary:
    'Indexed markets whose question, slug or event slug holds every word of `q` (any letter case), most fills first; the first 1,000 matches are ranked and `more` says there were others',
  answer: MarketSearchAnswer,
  query: {
    q: textParam('the words to find, 2 to 100 characters (required)', undefined, ERROR.badSearch),
    limit: rowsParam(PAGE_ROWS.marketSearch),
  },
  open: (ctx) => ({ ctx, index: createMarketTextIndex(ctx.offchain) }),
  handle({ ctx, index }, request) {
    const q = (request.query.q ?? '').trim();
    const words = searchWords(q);
    if (q.length < 2 || q.length > 100 || words.length === 0) throw new ApiError(400, ERROR.badSearch);
    const { limit } = request.query;
    const { ids, more } = index.find(ctx.reads.offchainRevision(), words, MAX_RANKED);
    const found = marketListings(ctx, ids);
    return { q, block: readServedBlock(ctx.state).block, matched: found.length, more, markets: found.slice(0, limit) };
  },
});
