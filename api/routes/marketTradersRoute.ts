// GET /v1/markets/{conditionId}/traders (spec 4.5, docs/design.md 5): every wallet that ever held a position in the
// market, one row each with both outcome legs, best first by total PnL (open legs valued at the marks) or by
// realized PnL; `marks` "<price0>,<price1>" by outcome index, by default the last fill prices (the payout once
// resolved). `traderCount` counts every row, `traders` the first `limit`.
import type { Static } from 'typebox';
import type { MarketTradersAnswer } from '../schemas/answerSchemas.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import { ApiError } from '../apiError.js';
import type { RouteRequest } from '../query/routeRequest.js';
import { indexedMarket } from '../indexedMarket.js';
import { clampedParam, conditionParam, textOf } from '../query/readQuery.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';
import { defaultMarks, type Price } from '../../engine/valuation/marketPrices.js';
import { compareTraders, parsePrice, priceNumber, traderFigures, traderRow } from '../rows/traderRow.js';
import { ERROR } from '../errorTexts.js';

export function marketTradersRoute(ctx: RouteContext, request: RouteRequest): Static<typeof MarketTradersAnswer> {
  const conditionId = conditionParam(request);
  const { market } = indexedMarket(ctx, conditionId);
  const limit = clampedParam(request.query, 'limit', 1, 1000, 100);
  const sort = textOf(request.query, 'sort') === 'realized' ? 'realized' : 'total';
  const marksText = textOf(request.query, 'marks');
  let marks: Price[] = defaultMarks(market);
  if (marksText !== null) {
    const given = marksText.split(',').map(parsePrice);
    if (given.length !== 2 || given.some((price) => price === null)) throw new ApiError(400, ERROR.badMarks);
    marks = given as Price[];
  }
  const figures = [...ctx.state.marketHolders(conditionId)].map((holder) => traderFigures(holder, marks));
  figures.sort(compareTraders(sort));
  return {
    conditionId: publicConditionId(market),
    block: readServedBlock(ctx.state).block,
    sort,
    marks: marks.map(priceNumber),
    traderCount: figures.length,
    traders: figures.slice(0, limit).map((figure) => traderRow(figure, market, ctx.reads)),
  };
}
