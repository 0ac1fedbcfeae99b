// GET /v1/markets/{conditionId}/top-traders (docs/design.md 5): the market's best traders by total PnL, `limit` 1-100
// (20), marks by token id (`<tokenId>:<price>,...`, decimal token ids as the answers show them; a token left out
// keeps its default mark, see defaultMarks). The answer gives the marks used by token id.
import { TopTradersAnswer } from '../schemas/answerSchemas.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import { indexedMarket } from '../indexedMarket.js';
import { conditionParam } from '../query/readQuery.js';
import { rowsParam, textParam } from '../query/queryParams.js';
import { PAGE_ROWS } from '../apiLimits.js';
import { readServedBlock } from '../readServedState.js';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { defaultMarks } from '../../engine/valuation/marketPrices.js';
import { compareTraders, priceNumber, tokenMarks, traderFigures, traderRow } from '../rows/traderRow.js';
import { ERROR, ERROR_DOCS } from '../errorTexts.js';
import { defineRoute } from './route.js';

export const topTradersRoute = defineRoute({
  pattern: '/v1/markets/:conditionId/top-traders',
  operationId: 'getTopTraders',
  errors: ERROR_DOCS.notIndexed,
  tag: 'Markets',
  summary: "A market's best traders by total PnL",
  answer: TopTradersAnswer,
  query: {
    limit: rowsParam(PAGE_ROWS.topTraders),
    marks: textParam(
      'prices by token id, `<tokenId>:<price>,...`; default the last fill prices, the payout once resolved',
    ),
  },
  open: (ctx) => ctx,
  handle: (ctx, request) => {
    const conditionId = conditionParam(request);
    const { market } = indexedMarket(ctx, conditionId);
    const { limit } = request.query;
    const tokens = market.tokens ?? [];
    const marks = tokenMarks(request.query.marks, tokens, defaultMarks(market), ERROR.badTokenMarks);
    const figures = [...ctx.state.marketHolders(conditionId)].map((holder) => traderFigures(holder, marks));
    figures.sort(compareTraders('total'));
    return {
      conditionId: publicConditionId(market),
      block: readServedBlock(ctx.state).block,
      marks: Object.fromEntries(tokens.map((token, i) => [tokenIdToDecimal(token), priceNumber(marks[i]!)])),
      traders: figures.slice(0, limit).map((figure) => traderRow(figure, market, ctx.reads)),
    };
  },
});
