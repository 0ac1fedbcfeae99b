// GET /v1/markets/{conditionId}: what a market page heads with. The market (spec 2.1) from the metadata, its
// outcome tokens, each outcome's last fill, the fill count, and the resolution as the chain gave it (the payout
// per share by outcome). A V2 combo lists its legs, each with its market's question and payout once resolved.
// Asked by a migration condition's id, the answer is its legacy market's (indexedMarket).
import { MarketAnswer } from '../schemas/answerSchemas.js';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { comboLegs, legResult } from '../../engine/state/comboResolution.js';
import { RESULT_DENOMINATOR } from '../../engine/chain/v2PositionIds.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import { indexedMarket } from '../indexedMarket.js';
import { conditionParam } from '../query/readQuery.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';
import type { MarketRecord } from '../../engine/state/marketRecords.js';
import { ERROR_DOCS } from '../errorTexts.js';
import { defineRoute } from './route.js';

export const marketRoute = defineRoute({
  pattern: '/v1/markets/:conditionId',
  operationId: 'getMarket',
  errors: ERROR_DOCS.notIndexed,
  tag: 'Markets',
  summary:
    'A market: its question and outcomes (metadata), outcome tokens, last fill by outcome, fill count, resolution ' +
    '(payout per share by outcome) and, for a combo, its legs',
  answer: MarketAnswer,
  query: {},
  open: (ctx) => ctx,
  handle: (ctx, request) => {
    const { market, view } = indexedMarket(ctx, conditionParam(request));
    const resolved = market.payoutDenominator > 0 && market.payoutNumerators !== null;
    return {
      conditionId: publicConditionId(market),
      block: readServedBlock(ctx.state).block,
      market: view,
      tokens: market.tokens === null ? null : market.tokens.map(tokenIdToDecimal),
      lastFills: market.marks.map((mark) =>
        mark === null || mark.shares <= 0 ? null : { price: mark.usd / mark.shares, ts: mark.ts },
      ),
      fills: market.fills,
      resolved,
      resolvedAt: resolved ? market.resolvedAt : null,
      payouts: resolved ? [0, 1].map((i) => (market.payoutNumerators![i] ?? 0) / market.payoutDenominator) : null,
      negRiskMarketId: market.negRiskMarketId,
      legs: market.v2?.legs ? legRows(ctx, market) : null,
    };
  },
});

/** A combo's legs: each leg's market and outcome, and its payout per share once its market resolved. */
function legRows(ctx: RouteContext, combo: MarketRecord) {
  return comboLegs(combo).map((leg) => {
    const { market, metadata } = ctx.reads.market(leg.market);
    const result = legResult(market, leg.outcomeIndex);
    return {
      positionId: tokenIdToDecimal(leg.positionId),
      conditionId: market ? publicConditionId(market) : leg.market.slice(0, 64),
      outcomeIndex: leg.outcomeIndex,
      question: metadata?.question ?? null,
      outcome: metadata?.outcomes?.[leg.outcomeIndex] ?? null,
      settle: result.payout === null ? null : result.payout / RESULT_DENOMINATOR,
    };
  });
}
