// Wallet actions on the conditional tokens and the neg-risk adapter (docs/design.md 2 and 3):
// splits, merges, redemptions, transfers, conversions. CTF events whose stakeholder or redeemer is a venue contract,
// and transfers touching one, are the plumbing of a trade or an adapter call: the venue's own event counts.
import { assert } from '../assert.js';
import { KIND } from '../chain/chainEvent.js';
import type {
  AdapterMerge,
  AdapterRedemption,
  AdapterSplit,
  CtfMerge,
  CtfRedemption,
  CtfSplit,
  PositionsConverted,
  TransferBatch,
  TransferSingle,
} from '../chain/chainEvent.js';
import { NO_TOKEN_BURN_ADDRESS, ZERO_ADDRESS } from '../chain/venueAddresses.js';
import { POSITION_EVENT } from '../reducers/positionEvent.js';
import type { BlockClock, DeriveContext } from './deriveContext.js';
import { ensureCondition } from './registerCondition.js';

const ZERO_COLLECTION = '0x' + '0'.repeat(64);

function binaryTokens(ctx: DeriveContext, conditionId: string, collateral: string | null): string[] | null {
  const market = ensureCondition(ctx, conditionId, collateral);
  // ensureCondition answers a condition with its tokens, computed if the registry lacked them.
  assert(market.tokens !== null, 'an ensured condition has its tokens');
  return market.tokens;
}

function isFullBinaryPartition(partition: number[]): boolean {
  return (
    partition.length === 2 && ((partition[0] === 1 && partition[1] === 2) || (partition[0] === 2 && partition[1] === 1))
  );
}

export function deriveCtfSplitOrMerge(
  ctx: DeriveContext,
  clock: BlockClock,
  event: CtfSplit | CtfMerge,
  merge: boolean,
): void {
  // deriveBlock passes the flag with the kind it dispatched.
  assert(event.kind === (merge ? KIND.ctfMerge : KIND.ctfSplit), 'a CTF split or merge is derived as its kind');
  if (ctx.isVenueContract(event.stakeholder)) return ctx.sink.skip('plumbing');
  if (event.parentCollectionId !== ZERO_COLLECTION || !isFullBinaryPartition(event.partition))
    return ctx.sink.skip('nonBinaryCondition');
  const tokens = binaryTokens(ctx, event.conditionId, event.collateral);
  if (!tokens) return ctx.sink.skip('unknownCondition');
  emitSplitOrMerge(ctx, clock, event, tokens, merge, false);
}

export function deriveAdapterSplitOrMerge(
  ctx: DeriveContext,
  clock: BlockClock,
  event: AdapterSplit | AdapterMerge,
  merge: boolean,
): void {
  assert(
    event.kind === (merge ? KIND.adapterMerge : KIND.adapterSplit),
    'an adapter split or merge is derived as its kind',
  );
  if (ctx.isVenueContract(event.stakeholder)) return ctx.sink.skip('plumbing');
  const tokens = binaryTokens(ctx, event.conditionId, ctx.addresses.wrappedCollateral);
  if (!tokens) return ctx.sink.skip('unknownCondition');
  emitSplitOrMerge(ctx, clock, event, tokens, merge, true);
}

function emitSplitOrMerge(
  ctx: DeriveContext,
  clock: BlockClock,
  event: CtfSplit | CtfMerge | AdapterSplit | AdapterMerge,
  tokens: string[],
  merge: boolean,
  viaAdapter: boolean,
): void {
  // A full binary set: both outcome tokens, as setTokens registered them; the amount a decoded uint.
  assert(tokens.length === 2, 'a split or merge moves both outcomes of a condition');
  assert(Number.isSafeInteger(event.amount) && event.amount >= 0, 'a split or merge moves a decoded amount');
  const base = {
    wallet: event.stakeholder,
    ts: clock.ts,
    block: clock.block,
    logIndex: event.logIndex,
    market: event.conditionId,
    tokens,
    markets: [],
    amount: event.amount,
  };
  ctx.sink.positionEvent(
    merge ? { kind: POSITION_EVENT.merge, ...base } : { kind: POSITION_EVENT.split, ...base, viaAdapter },
  );
}

/** The CTF's redemption carries no per-outcome amounts: the wallet fold redeems the tracked balances. */
export function deriveCtfRedemption(ctx: DeriveContext, clock: BlockClock, event: CtfRedemption): void {
  if (ctx.isVenueContract(event.redeemer)) return ctx.sink.skip('plumbing');
  if (event.parentCollectionId !== ZERO_COLLECTION) return ctx.sink.skip('nonBinaryCondition');
  const market = ensureCondition(ctx, event.conditionId, event.collateral);
  if (!market.payoutNumerators || market.payoutDenominator === 0 || !market.tokens)
    return ctx.sink.skip('unresolvedRedemption');
  const tokens: string[] = [];
  const numerators: number[] = [];
  for (const indexSet of event.indexSets) {
    const outcome = indexSet === 1 ? 0 : indexSet === 2 ? 1 : -1;
    if (outcome < 0) continue;
    tokens.push(market.tokens[outcome]!);
    numerators.push(market.payoutNumerators[outcome] ?? 0);
  }
  if (tokens.length === 0) return ctx.sink.skip('nonBinaryCondition');
  // One payout numerator per token redeemed, out of the condition's denominator (checked non-zero above).
  assert(numerators.length === tokens.length, 'a redemption has a numerator a token');
  assert(Number.isSafeInteger(event.payout) && event.payout >= 0, 'a redemption pays a decoded amount');
  ctx.sink.positionEvent({
    kind: POSITION_EVENT.redemption,
    wallet: event.redeemer,
    ts: clock.ts,
    block: clock.block,
    logIndex: event.logIndex,
    market: market.conditionId,
    tokens,
    numerators,
    denominator: market.payoutDenominator,
    amounts: null,
    payout: event.payout,
  });
}

export function deriveAdapterRedemption(ctx: DeriveContext, clock: BlockClock, event: AdapterRedemption): void {
  if (ctx.isVenueContract(event.redeemer)) return ctx.sink.skip('plumbing');
  const market = ensureCondition(ctx, event.conditionId, ctx.addresses.wrappedCollateral);
  if (!market.payoutNumerators || market.payoutDenominator === 0 || !market.tokens)
    return ctx.sink.skip('unresolvedRedemption');
  // The adapter redeems both outcomes: amounts, numerators and tokens line up two by two.
  assert(market.tokens.length === 2, "an adapter redemption redeems a condition's two outcomes");
  assert(Number.isSafeInteger(event.payout) && event.payout >= 0, 'a redemption pays a decoded amount');
  ctx.sink.positionEvent({
    kind: POSITION_EVENT.redemption,
    wallet: event.redeemer,
    ts: clock.ts,
    block: clock.block,
    logIndex: event.logIndex,
    market: market.conditionId,
    tokens: market.tokens,
    numerators: market.payoutNumerators.slice(0, 2),
    denominator: market.payoutDenominator,
    amounts: [event.amounts[0] ?? 0, event.amounts[1] ?? 0],
    payout: event.payout,
  });
}

export function isWalletTransfer(ctx: DeriveContext, operator: string, from: string, to: string): boolean {
  for (const address of [operator, from, to]) {
    if (address === ZERO_ADDRESS || address === NO_TOKEN_BURN_ADDRESS || ctx.isVenueContract(address)) return false;
  }
  return from !== to;
}

export function deriveTransfer(
  ctx: DeriveContext,
  clock: BlockClock,
  logIndex: number,
  from: string,
  to: string,
  token: string,
  amount: number,
): void {
  // Every caller passes two wallets (isWalletTransfer, or a holder and another recipient); amounts are decoded uints.
  assert(from !== to, 'a transfer is between two wallets');
  assert(Number.isSafeInteger(amount) && amount >= 0, 'a transfer moves a decoded amount');
  assert(token.length === 64, 'a transfer moves a token id');
  if (amount === 0) return;
  const slot = ctx.sink.nextSlot();
  // The batch's slot counter: its two ends meet in it (transferSlots.ts).
  assert(Number.isSafeInteger(slot) && slot >= 0, 'a transfer is given a slot');
  const market = ctx.registry.token(token)?.conditionId ?? '';
  ctx.sink.positionEvent({
    kind: POSITION_EVENT.transferOut,
    wallet: from,
    ts: clock.ts,
    block: clock.block,
    logIndex,
    market,
    token,
    amount,
    slot,
  });
  ctx.sink.positionEvent({
    kind: POSITION_EVENT.transferIn,
    wallet: to,
    ts: clock.ts,
    block: clock.block,
    logIndex,
    market,
    token,
    amount,
    slot,
  });
}

export function deriveTransferSingle(ctx: DeriveContext, clock: BlockClock, event: TransferSingle): void {
  if (!isWalletTransfer(ctx, event.operator, event.from, event.to)) return ctx.sink.skip('plumbing');
  deriveTransfer(ctx, clock, event.logIndex, event.from, event.to, event.tokenId, event.value);
}

export function deriveTransferBatch(ctx: DeriveContext, clock: BlockClock, event: TransferBatch): void {
  if (!isWalletTransfer(ctx, event.operator, event.from, event.to)) return ctx.sink.skip('plumbing');
  for (let i = 0; i < event.tokenIds.length; i++) {
    deriveTransfer(ctx, clock, event.logIndex, event.from, event.to, event.tokenIds[i]!, event.values[i] ?? 0);
  }
}

/** Converts NO positions of the questions in `indexSet` into YES of the others (docs/venue.md 4). */
export function derivePositionsConverted(ctx: DeriveContext, clock: BlockClock, event: PositionsConverted): void {
  if (ctx.isVenueContract(event.stakeholder)) return ctx.sink.skip('plumbing');
  const negRisk = ctx.registry.negRiskEvent(event.marketId);
  if (!negRisk || negRisk.questions.length === 0 || event.amount === 0) return ctx.sink.skip('unknownNegRiskMarket');
  const mask = BigInt('0x' + event.indexSet);
  const noTokens: string[] = [];
  const yesTokens: string[] = [];
  const noMarkets: string[] = [];
  const yesMarkets: string[] = [];
  for (let index = 0; index < negRisk.questions.length; index++) {
    const conditionId = negRisk.questions[index];
    if (!conditionId) continue;
    const tokens = binaryTokens(ctx, conditionId, ctx.addresses.wrappedCollateral)!;
    if ((mask >> BigInt(index)) & 1n) {
      noTokens.push(tokens[1]!);
      noMarkets.push(conditionId);
    } else {
      yesTokens.push(tokens[0]!);
      yesMarkets.push(conditionId);
    }
  }
  if (noTokens.length === 0) return ctx.sink.skip('unknownNegRiskMarket');
  // Each question's token goes with its condition, into one side or the other.
  assert(noMarkets.length === noTokens.length && yesMarkets.length === yesTokens.length, 'a leg names its market');
  assert(noTokens.length + yesTokens.length <= negRisk.questions.length, 'a conversion has a leg a question at most');
  assert(Number.isSafeInteger(event.amount) && event.amount > 0, 'a conversion moves a decoded amount');
  ctx.sink.positionEvent({
    kind: POSITION_EVENT.conversion,
    wallet: event.stakeholder,
    ts: clock.ts,
    block: clock.block,
    logIndex: event.logIndex,
    market: '',
    noTokens,
    yesTokens,
    noMarkets,
    yesMarkets,
    amount: event.amount,
    feeBips: negRisk.feeBips,
  });
}
