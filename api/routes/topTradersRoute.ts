// GET /v1/markets/{conditionId}/top-traders (docs/design.md 5): the market's best traders by total PnL, `limit` 1-100
// (20), marks by token id (`<tokenId>:<price>,...`, decimal token ids as the answers show them; a token left out
// keeps its default mark, see defaultMarks). The answer gives the marks used by token id.
import type { Static } from 'typebox';
import type { TopTradersAnswer } from '../schemas/answerSchemas.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import type { RouteRequest } from '../query/routeRequest.js';
import { indexedMarket } from '../indexedMarket.js';
import { clampedParam, conditionParam, textOf } from '../query/readQuery.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { defaultMarks } from '../../engine/valuation/marketPrices.js';
import { compareTraders, priceNumber, tokenMarks, traderFigures, traderRow } from '../rows/traderRow.js';
import { ERROR } from '../errorTexts.js';

export function topTradersRoute(ctx: RouteContext, request: RouteRequest): Static<typeof TopTradersAnswer> {
  const conditionId = conditionParam(request);
  const { market } = indexedMarket(ctx, conditionId);
  const limit = clampedParam(request.query, 'limit', 1, 100, 20);
  const tokens = market.tokens ?? [];
  const marks = tokenMarks(textOf(request.query, 'marks'), tokens, defaultMarks(market), ERROR.badTokenMarks);
  const figures = [...ctx.state.marketHolders(conditionId)].map((holder) => traderFigures(holder, marks));
  figures.sort(compareTraders('total'));
  return {
    conditionId: publicConditionId(market),
    block: readServedBlock(ctx.state).block,
    marks: Object.fromEntries(tokens.map((token, i) => [tokenIdToDecimal(token), priceNumber(marks[i]!)])),
    traders: figures.slice(0, limit).map((figure) => traderRow(figure, market, ctx.reads)),
  };
}
