// GET /v1/markets/{conditionId}/traders (spec 4.5, docs/design.md 5): every wallet that ever held a position in the
// market, one row each with both outcome legs, best first by total PnL (open legs valued at the marks) or by
// realized PnL; `marks` "<price0>,<price1>" by outcome index, by default the last fill prices (the payout once
// resolved). `traderCount` counts every row, `traders` the first `limit`.
import { MarketTradersAnswer } from '../schemas/answerSchemas.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import { ApiError } from '../apiError.js';
import { indexedMarket } from '../indexedMarket.js';
import { conditionParam } from '../query/readQuery.js';
import { choiceParam, rowsParam, textParam } from '../query/queryParams.js';
import { PAGE_ROWS } from '../apiLimits.js';
import { readServedBlock } from '../readServedState.js';
import { defaultMarks, type Price } from '../../engine/valuation/marketPrices.js';
import { compareTraders, parsePrice, priceNumber, traderFigures, traderRow } from '../rows/traderRow.js';
import { ERROR, ERROR_DOCS } from '../errorTexts.js';
import { defineRoute } from './route.js';

export const marketTradersRoute = defineRoute({
  pattern: '/v1/markets/:conditionId/traders',
  operationId: 'getMarketTraders',
  errors: ERROR_DOCS.notIndexed,
  tag: 'Markets',
  summary: 'Every wallet of a market, one row each with both outcome legs, best first',
  answer: MarketTradersAnswer,
  query: {
    limit: rowsParam(PAGE_ROWS.marketTraders),
    sort: choiceParam('`total` (open legs valued at the marks, default) or `realized`', ['total', 'realized'], 'total'),
    marks: textParam(
      'prices by outcome index, `<price0>,<price1>`; default the last fill prices, the payout once resolved',
      '^[0-9.]+,[0-9.]+$',
      ERROR.badMarks,
    ),
  },
  open: (ctx) => ctx,
  handle: (ctx, request) => {
    const conditionId = conditionParam(request);
    const { market } = indexedMarket(ctx, conditionId);
    const { limit, sort } = request.query;
    const marksText = request.query.marks;
    let marks: Price[] = defaultMarks(market);
    if (marksText !== undefined) {
      const given = marksText.split(',').map(parsePrice);
      if (given.length !== 2 || !given.every((price): price is Price => price !== null))
        throw new ApiError(400, ERROR.badMarks);
      marks = given;
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
  },
});
