// Early AMM pools (docs/venue.md 1.8, docs/design.md 3): trades fold as fee-inclusive buys and net sells and
// appear in trade lists (exchange `amm`, the pool as counterparty); funding hands the provider outcome tokens at the
// pool's price a[other]/(a0+a1). Only pools the factory created count.
import {
  EXCHANGE,
  type FpmmBuy,
  type FpmmFundingAdded,
  type FpmmFundingRemoved,
  type FpmmSell,
} from '../chain/chainEvent.js';
import { mulDivRound } from '../reducers/mulDivRound.js';
import { POSITION_EVENT } from '../reducers/positionEvent.js';
import type { MarketRecord } from '../state/marketRecords.js';
import { FEE_UNIT, ROLE, SIDE } from '../state/tradeRow.js';
import type { BlockClock, DeriveContext } from './deriveContext.js';
import { assert } from '../assert.js';

function poolMarket(ctx: DeriveContext, pool: string): MarketRecord | null {
  const record = ctx.registry.pool(pool);
  if (!record) return null;
  const market = ctx.registry.market(record.conditionId);
  if (!market || !market.tokens) return null;
  // deriveFpmmCreation registered the pool with its condition, whose tokens are a binary market's two.
  assert(market.conditionId === record.conditionId, "a pool's market is its condition's record");
  assert(market.tokens.length === 2, "a pool's market has two outcomes");
  return market;
}

function recordAmmTrade(
  ctx: DeriveContext,
  clock: BlockClock,
  market: MarketRecord,
  event: FpmmBuy | FpmmSell,
  wallet: string,
  buy: boolean,
  outcome: number,
  shares: number,
  usd: number,
  fee: number,
): void {
  // The callers skip an outcome past 1 (a decoded uint, so never below 0) and an empty trade.
  assert(outcome === 0 || outcome === 1, 'an AMM trade is of one of two outcomes');
  assert(Number.isSafeInteger(shares) && shares > 0, 'an AMM trade moves shares');
  ctx.sink.trade(market.conditionId, {
    logIndex: event.logIndex,
    tx: event.tx,
    wallet,
    side: buy ? SIDE.buy : SIDE.sell,
    token: market.tokens![outcome]!,
    outcomeIndex: outcome,
    shares,
    usd,
    fee,
    feeUnit: FEE_UNIT.usd,
    role: ROLE.taker,
    counterparty: event.pool,
    exchange: EXCHANGE.amm,
  });
  market.marks[outcome] = { usd, shares, ts: clock.ts };
  ctx.registry.putMarks(market);
}

export function deriveFpmmBuy(ctx: DeriveContext, clock: BlockClock, event: FpmmBuy): void {
  const market = poolMarket(ctx, event.pool);
  if (!market || event.outcomeIndex > 1) return ctx.sink.skip('unknownPool');
  if (event.outcomeTokensBought === 0) return ctx.sink.skip('emptyFill');
  // Decoded uints: the difference recorded as the trade's usd is then a safe integer too.
  assert(Number.isSafeInteger(event.investmentAmount) && event.investmentAmount >= 0, 'an AMM buy invests a uint');
  assert(Number.isSafeInteger(event.feeAmount) && event.feeAmount >= 0, "an AMM trade's fee is a decoded uint");
  const token = market.tokens![event.outcomeIndex]!;
  ctx.sink.positionEvent({
    kind: POSITION_EVENT.ammBuy,
    wallet: event.buyer,
    ts: clock.ts,
    block: clock.block,
    logIndex: event.logIndex,
    market: market.conditionId,
    token,
    investment: event.investmentAmount,
    fee: event.feeAmount,
    shares: event.outcomeTokensBought,
  });
  recordAmmTrade(
    ctx,
    clock,
    market,
    event,
    event.buyer,
    true,
    event.outcomeIndex,
    event.outcomeTokensBought,
    event.investmentAmount - event.feeAmount,
    event.feeAmount,
  );
}

export function deriveFpmmSell(ctx: DeriveContext, clock: BlockClock, event: FpmmSell): void {
  const market = poolMarket(ctx, event.pool);
  if (!market || event.outcomeIndex > 1) return ctx.sink.skip('unknownPool');
  if (event.outcomeTokensSold === 0) return ctx.sink.skip('emptyFill');
  assert(Number.isSafeInteger(event.returnAmount) && event.returnAmount >= 0, 'an AMM sell returns a uint');
  assert(Number.isSafeInteger(event.feeAmount) && event.feeAmount >= 0, "an AMM trade's fee is a decoded uint");
  const token = market.tokens![event.outcomeIndex]!;
  ctx.sink.positionEvent({
    kind: POSITION_EVENT.ammSell,
    wallet: event.seller,
    ts: clock.ts,
    block: clock.block,
    logIndex: event.logIndex,
    market: market.conditionId,
    token,
    proceeds: event.returnAmount,
    fee: event.feeAmount,
    shares: event.outcomeTokensSold,
  });
  recordAmmTrade(
    ctx,
    clock,
    market,
    event,
    event.seller,
    false,
    event.outcomeIndex,
    event.outcomeTokensSold,
    event.returnAmount + event.feeAmount,
    event.feeAmount,
  );
}

/** Funding added: the outcome with the smaller amount added comes back, |a0-a1| of it. */
export function deriveFpmmFundingAdded(ctx: DeriveContext, clock: BlockClock, event: FpmmFundingAdded): void {
  const market = poolMarket(ctx, event.pool);
  if (!market) return ctx.sink.skip('unknownPool');
  const [a0 = 0, a1 = 0] = event.amountsAdded;
  if (a0 === a1) return;
  const outcome = a0 < a1 ? 0 : 1;
  const other = outcome === 0 ? a1 : a0;
  const shares = Math.abs(a0 - a1);
  const cost = mulDivRound(shares, other, a0 + a1);
  // The pool's price a[other]/(a0+a1) lies in [0, 1] (amounts are decoded uints, not both 0): tokens come back at
  // no more than they are.
  assert(cost >= 0 && cost <= shares, 'funding returns tokens at a price of at most 1');
  ctx.sink.positionEvent({
    kind: POSITION_EVENT.ammReceive,
    wallet: event.funder,
    ts: clock.ts,
    block: clock.block,
    logIndex: event.logIndex,
    market: market.conditionId,
    token: market.tokens![outcome]!,
    shares,
    cost,
  });
}

/** Funding removed: each outcome's tokens come out at price a[other]/(a0+a1). */
export function deriveFpmmFundingRemoved(ctx: DeriveContext, clock: BlockClock, event: FpmmFundingRemoved): void {
  const market = poolMarket(ctx, event.pool);
  if (!market) return ctx.sink.skip('unknownPool');
  const [a0 = 0, a1 = 0] = event.amountsRemoved;
  const amounts = [a0, a1];
  for (let outcome = 0; outcome < 2; outcome++) {
    const shares = amounts[outcome]!;
    if (shares === 0) continue;
    const cost = mulDivRound(shares, amounts[1 - outcome]!, a0 + a1);
    assert(cost >= 0 && cost <= shares, 'funding returns tokens at a price of at most 1');
    ctx.sink.positionEvent({
      kind: POSITION_EVENT.ammReceive,
      wallet: event.funder,
      ts: clock.ts,
      block: clock.block,
      logIndex: event.logIndex,
      market: market.conditionId,
      token: market.tokens![outcome]!,
      shares,
      cost,
    });
  }
}
