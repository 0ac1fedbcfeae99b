// Market registry events: conditions and their tokens, resolutions, the neg-risk adapter's events and questions,
// AMM pools, and price-feed answers. These change no wallet's position directly.
import type {
  AnswerUpdated,
  ConditionPreparation,
  ConditionResolution,
  FpmmCreation,
  MarketPrepared,
  QuestionPrepared,
  TokenRegistered,
} from '../chain/chainEvent.js';
import { negRiskConditionId, outcomeTokenIds } from '../chain/positionIds.js';
import { createMarketRecord } from '../state/marketRecords.js';
import type { BlockClock, DeriveContext } from './deriveContext.js';
import { ensureCondition, setTokens } from './registerCondition.js';

export function deriveConditionPreparation(ctx: DeriveContext, clock: BlockClock, event: ConditionPreparation): void {
  if (event.outcomeSlotCount !== 2) return ctx.sink.skip('nonBinaryCondition');
  const negRisk = event.oracle === ctx.addresses.negRiskAdapter;
  const market = ctx.registry.market(event.conditionId) ?? createMarketRecord(event.conditionId);
  market.oracle = event.oracle;
  market.questionId = event.questionId;
  market.preparedAt = clock.ts;
  market.negRisk = negRisk;
  if (negRisk) {
    // questionId = marketId with its last byte replaced by the question index (docs/venue.md 4).
    market.negRiskMarketId = event.questionId.slice(0, 64) + '00';
    market.questionIndex = parseInt(event.questionId.slice(64), 16);
  }
  setTokens(
    ctx,
    market,
    outcomeTokenIds(event.conditionId, negRisk ? ctx.addresses.wrappedCollateral : ctx.addresses.usdc),
  );
}

export function deriveConditionResolution(ctx: DeriveContext, clock: BlockClock, event: ConditionResolution): void {
  if (event.outcomeSlotCount !== 2) return ctx.sink.skip('nonBinaryCondition');
  const known = ctx.registry.market(event.conditionId);
  const market =
    known ??
    ensureCondition(
      ctx,
      event.conditionId,
      event.oracle === ctx.addresses.negRiskAdapter ? ctx.addresses.wrappedCollateral : ctx.addresses.usdc,
    );
  let denominator = 0;
  for (const n of event.payoutNumerators) denominator += n;
  market.payoutNumerators = event.payoutNumerators.slice();
  market.payoutDenominator = denominator;
  market.resolvedAt = clock.ts;
  market.resolvedBlock = clock.block;
  ctx.registry.putMarket(market);
}

/**
 * V1 exchanges register each token with its complement. The computed ids must agree; a condition the log never
 * prepared learns its tokens here, trying both collaterals to tell a neg-risk market from a standard one.
 */
export function deriveTokenRegistered(ctx: DeriveContext, event: TokenRegistered): void {
  const known = ctx.registry.market(event.conditionId);
  if (known && known.tokens) {
    if (!known.tokens.includes(event.token0) || !known.tokens.includes(event.token1)) ctx.sink.skip('tokenMismatch');
    return;
  }
  for (const collateral of [ctx.addresses.usdc, ctx.addresses.wrappedCollateral]) {
    const tokens = outcomeTokenIds(event.conditionId, collateral);
    if (tokens.includes(event.token0) && tokens.includes(event.token1)) {
      const market = known ?? createMarketRecord(event.conditionId);
      market.negRisk = collateral === ctx.addresses.wrappedCollateral;
      setTokens(ctx, market, tokens);
      return;
    }
  }
  ctx.sink.skip('tokenMismatch');
}

export function deriveMarketPrepared(ctx: DeriveContext, event: MarketPrepared): void {
  if (ctx.registry.negRiskEvent(event.marketId)) return;
  ctx.registry.putNegRiskEvent({
    marketId: event.marketId,
    oracle: event.oracle,
    feeBips: event.feeBips,
    questions: [],
  });
}

export function deriveQuestionPrepared(ctx: DeriveContext, event: QuestionPrepared): void {
  const negRisk = ctx.registry.negRiskEvent(event.marketId);
  if (!negRisk) return ctx.sink.skip('unknownNegRiskMarket');
  const conditionId = negRiskConditionId(ctx.addresses.negRiskAdapter, event.questionId);
  while (negRisk.questions.length < event.index) negRisk.questions.push('');
  negRisk.questions[event.index] = conditionId;
  ctx.registry.putNegRiskEvent(negRisk);
  const market = ensureCondition(ctx, conditionId, ctx.addresses.wrappedCollateral);
  market.negRiskMarketId = event.marketId;
  market.questionIndex = event.index;
  ctx.registry.putMarket(market);
}

export function deriveFpmmCreation(ctx: DeriveContext, event: FpmmCreation): void {
  const conditionId = event.conditionIds[0];
  if (!conditionId || event.conditionIds.length !== 1) return ctx.sink.skip('nonBinaryCondition');
  ctx.addVenueContract(event.pool);
  ctx.registry.putPool({ pool: event.pool, conditionId, collateral: event.collateral, fee: event.fee });
  const market = ensureCondition(ctx, conditionId, event.collateral);
  market.pool = event.pool;
  ctx.registry.putMarket(market);
}

export function deriveAnswerUpdated(ctx: DeriveContext, clock: BlockClock, event: AnswerUpdated): void {
  const asset = ctx.addresses.priceFeeds[event.feed];
  if (!asset) return;
  ctx.registry.putFeedAnswer({
    asset,
    feed: event.feed,
    answer: event.current,
    roundId: event.roundId,
    updatedAt: event.updatedAt,
    block: clock.block,
  });
}
