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
import { assert } from '../assert.js';

export function deriveConditionPreparation(ctx: DeriveContext, clock: BlockClock, event: ConditionPreparation): void {
  if (event.outcomeSlotCount !== 2) return ctx.sink.skip('nonBinaryCondition');
  const negRisk = event.oracle === ctx.addresses.negRiskAdapter;
  const market = ctx.registry.market(event.conditionId) ?? createMarketRecord(event.conditionId);
  assert(market.conditionId === event.conditionId, 'the registry answers the condition asked for');
  market.oracle = event.oracle;
  market.questionId = event.questionId;
  market.preparedAt = clock.ts;
  market.negRisk = negRisk;
  if (negRisk) {
    // questionId = marketId with its last byte replaced by the question index (docs/venue.md 4).
    market.negRiskMarketId = event.questionId.slice(0, 64) + '00';
    market.questionIndex = parseInt(event.questionId.slice(64), 16);
    // A decoded bytes32 (0x + 64 hex): its market id is a bytes32 as well, its index the last byte's 0 to 255.
    assert(market.negRiskMarketId.length === 66, "a neg-risk question's market id is 32 bytes");
    assert(market.questionIndex >= 0 && market.questionIndex <= 255, "a neg-risk question's index is a byte");
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
  assert(market.conditionId === event.conditionId, 'the registry answers the condition asked for');
  let denominator = 0;
  for (const n of event.payoutNumerators) denominator += n;
  // A sum of decoded uints: never below 0, so 0 only when nothing pays (deriveCtfRedemption skips those).
  assert(denominator >= 0, "a resolution's denominator sums its numerators");
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
      assert(
        ctx.registry.token(event.token0)?.conditionId === event.conditionId,
        'a registered token names its condition',
      );
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
  assert(ctx.registry.negRiskEvent(event.marketId) !== undefined, 'a neg-risk event put is found');
}

export function deriveQuestionPrepared(ctx: DeriveContext, event: QuestionPrepared): void {
  const negRisk = ctx.registry.negRiskEvent(event.marketId);
  if (!negRisk) return ctx.sink.skip('unknownNegRiskMarket');
  const conditionId = negRiskConditionId(ctx.addresses.negRiskAdapter, event.questionId);
  // A decoded uint: the questions list is filled up to it, a question at each index.
  assert(Number.isSafeInteger(event.index) && event.index >= 0, "a question's index is a decoded uint");
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
  // A pool's own CTF moves and transfers are then plumbing, from this event on.
  assert(ctx.isVenueContract(event.pool), "a pool created is one of the venue's contracts");
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
