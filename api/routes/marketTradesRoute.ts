// GET /v1/markets/{conditionId}/trades (spec 4.8, docs/design.md 5): every fill of the market newest first, by cursor
// ("ts,block,logIndex" of the last row), `outcome` and `side` keeping one of each. The fills table holds a
// match as the taker's fill plus one per maker order, which is what the spec shows.
import { MarketTradesAnswer } from '../schemas/answerSchemas.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import { requireTrades } from '../requireTrades.js';
import { indexedMarket } from '../indexedMarket.js';
import { conditionParam } from '../query/readQuery.js';
import { choiceParam, rowsParam, textParam } from '../query/queryParams.js';
import { PAGE_ROWS } from '../apiLimits.js';
import { readServedBlock } from '../readServedState.js';
import { parseTradeCursor, TRADE_CURSOR_PATTERN, tradeCursor, tradeView, type TradeView } from '../rows/tradeView.js';
import { SIDE } from '../../engine/state/tradeRow.js';
import { ERROR_DOCS } from '../errorTexts.js';
import { defineRoute } from './route.js';

export const marketTradesRoute = defineRoute({
  pattern: '/v1/markets/:conditionId/trades',
  operationId: 'getMarketTrades',
  errors: { ...ERROR_DOCS.notIndexed, ...ERROR_DOCS.tradesOff },
  tag: 'Markets',
  summary: "A market's trades, newest first",
  answer: MarketTradesAnswer,
  query: {
    limit: rowsParam(PAGE_ROWS.marketTrades),
    cursor: textParam(
      "the previous page's `next`: ts,block,logIndex",
      TRADE_CURSOR_PATTERN,
      'cursor must be a cursor ts,block,logIndex',
    ),
    outcome: choiceParam('one outcome only: 0 or 1', ['0', '1']),
    side: choiceParam('one side only: BUY or SELL', ['BUY', 'SELL']),
  },
  open: (ctx) => ctx,
  handle: (ctx, request) => {
    const conditionId = conditionParam(request);
    const { market } = indexedMarket(ctx, conditionId);
    requireTrades(ctx);
    const query = request.query;
    const { limit } = query;
    const before = query.cursor === undefined ? null : parseTradeCursor(query.cursor);
    const outcome = query.outcome === undefined ? null : Number(query.outcome);
    const side = query.side === undefined ? null : query.side === 'BUY' ? SIDE.buy : SIDE.sell;

    const trades: TradeView[] = [];
    let more = false;
    for (const fill of ctx.state.marketFills(conditionId, { before })) {
      if ((outcome !== null && fill.row.outcomeIndex !== outcome) || (side !== null && fill.row.side !== side))
        continue;
      if (trades.length === limit) {
        more = true;
        break;
      }
      trades.push(tradeView(fill, publicConditionId(market)));
    }
    const last = trades.at(-1);
    return {
      conditionId: publicConditionId(market),
      block: readServedBlock(ctx.state).block,
      complete: true,
      trades,
      next: more && last ? tradeCursor(last) : null,
    };
  },
});
