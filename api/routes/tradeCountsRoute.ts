// GET /v1/markets/{conditionId}/trade-counts (spec 4.7): for up to 200 wallets, their fills over the market's
// whole life (one per order a wallet owned in a match; AMM trades count, splits, merges and redemptions do not)
// and the time of the latest of them, 0 for a wallet that never traded it. Malformed entries are skipped; a list
// with no address at all is refused.
import { TradeCountsAnswer } from '../schemas/answerSchemas.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import { requireTrades } from '../requireTrades.js';
import { indexedMarket } from '../indexedMarket.js';
import { conditionParam, walletListParam } from '../query/readQuery.js';
import { readServedBlock } from '../readServedState.js';
import { textParam } from '../query/queryParams.js';
import { ERROR_DOCS } from '../errorTexts.js';
import { defineRoute } from './route.js';
import { MAX_COUNTED_WALLETS } from '../apiLimits.js';

export const tradeCountsRoute = defineRoute({
  pattern: '/v1/markets/:conditionId/trade-counts',
  operationId: 'getTradeCounts',
  errors: { ...ERROR_DOCS.notIndexed, ...ERROR_DOCS.tradesOff },
  tag: 'Markets',
  summary: "Fills of up to 200 wallets over the market's whole life",
  answer: TradeCountsAnswer,
  query: { wallets: textParam('up to 200 0x addresses, comma separated; malformed entries are skipped') },
  open: (ctx) => ctx,
  handle: (ctx, request) => {
    const conditionId = conditionParam(request);
    const { market } = indexedMarket(ctx, conditionId);
    requireTrades(ctx);
    const wallets = walletListParam(request.query.wallets, MAX_COUNTED_WALLETS);
    const found = ctx.state.marketTradeCounts(conditionId, wallets);
    const counts: Record<string, number> = {};
    const lastTs: Record<string, number> = {};
    for (const wallet of wallets) {
      const entry = found.get(wallet)!;
      counts[wallet] = entry.fills;
      lastTs[wallet] = entry.lastTs;
    }
    return {
      conditionId: publicConditionId(market),
      block: readServedBlock(ctx.state).block,
      complete: true,
      counts,
      lastTs,
    };
  },
});
