// GET /v1/markets/{conditionId}/trades (spec 4.8, docs/design.md 5): every fill of the market newest first, by cursor
// ("ts,block,logIndex" of the last row), `outcome` and `side` keeping one of each. The fills table holds a
// match as the taker's fill plus one per maker order, which is what the spec shows.
import type { Static } from 'typebox';
import type { MarketTradesAnswer } from '../schemas/answerSchemas.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import type { RouteRequest } from '../query/routeRequest.js';
import { requireTrades } from '../requireTrades.js';
import { indexedMarket } from '../indexedMarket.js';
import { clampedParam, conditionParam, textOf } from '../query/readQuery.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';
import { parseTradeCursor, tradeCursor, tradeView, type TradeView } from '../rows/tradeView.js';
import { SIDE } from '../../engine/state/tradeRow.js';

export function marketTradesRoute(ctx: RouteContext, request: RouteRequest): Static<typeof MarketTradesAnswer> {
  const conditionId = conditionParam(request);
  const { market } = indexedMarket(ctx, conditionId);
  requireTrades(ctx);
  const query = request.query;
  const limit = clampedParam(query, 'limit', 1, 1000, 100);
  const cursor = textOf(query, 'cursor');
  const before = cursor === null ? null : parseTradeCursor(cursor);
  const outcomeText = textOf(query, 'outcome');
  const outcome = outcomeText === null ? null : Number(outcomeText);
  const sideText = textOf(query, 'side');
  const side = sideText === null ? null : sideText === 'BUY' ? SIDE.buy : SIDE.sell;

  const trades: TradeView[] = [];
  let more = false;
  for (const fill of ctx.state.marketFills(conditionId, { before })) {
    if ((outcome !== null && fill.row.outcomeIndex !== outcome) || (side !== null && fill.row.side !== side)) continue;
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
}
