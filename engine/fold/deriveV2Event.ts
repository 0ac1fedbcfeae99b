// Protocol V2 events (docs/design.md 10, docs/venue-v2.md 3): the PositionManager's transfers between wallets, the
// modules' splits, merges, redemptions and results, combos' legs, and the AutoRedeemer's holder. The stack's own moves
// (a module minting or burning, the exchange settling a match, the Router passing tokens on) are plumbing: the
// exchange's and modules' events say what they were, and the end user is the recipient they name.
import { assert, AssertionFailure } from '../assert.js';
import { V2_KIND } from '../chain/v2EventAbis.js';
import type {
  ComboConditionPrepared,
  NegRiskHorizontalMerge,
  NegRiskHorizontalSplit,
  NegRiskRemainingDerivableAsNo,
  V2AutoRedemption,
  V2ChainEvent,
  V2ConditionResolved,
  V2MigrationConditionRegistered,
  V2PositionRedeemed,
  V2PositionsMerged,
  V2PositionsSplit,
  V2TransferBatch,
  V2TransferSingle,
} from '../chain/v2ChainEvent.js';
import { v2IdWord } from '../chain/v2ChainEvent.js';
import { RESULT_DENOMINATOR, v2ArityOf, v2EventConditionId } from '../chain/v2PositionIds.js';
import { POSITION_EVENT } from '../reducers/positionEvent.js';
import type { MarketRecord } from '../state/marketRecords.js';
import type { BlockClock, DeriveContext } from './deriveContext.js';
import { deriveTransfer, isWalletTransfer } from './deriveCtfEvent.js';
import { deriveOrderFilledV3 } from './deriveFill.js';
import {
  deriveCompressed,
  deriveConvertedOnEvent,
  deriveConvertedToYesBasket,
  deriveExtracted,
  deriveInjected,
  deriveMergedFromYesBasket,
  deriveMergedOnCondition,
  deriveMergedOnEvent,
  derivePositionConverted,
  derivePositionMigrated,
  deriveSplitOnCondition,
  deriveSplitOnEvent,
  deriveUnwrapped,
  deriveWrapped,
  eventYesLegs,
} from './deriveV2Move.js';
import { ensureV2Condition, ensureV2Position, linkMigration } from './registerV2Condition.js';
import type { TxContext } from './txContext.js';

export function deriveV2Event(ctx: DeriveContext, clock: BlockClock, tx: TxContext, event: V2ChainEvent): void {
  switch (event.kind) {
    case V2_KIND.v2TransferSingle:
      return deriveV2TransferSingle(ctx, clock, event);
    case V2_KIND.v2TransferBatch:
      return deriveV2TransferBatch(ctx, clock, event);
    case V2_KIND.v3OrderFilled:
      return deriveOrderFilledV3(ctx, clock, tx, event);
    // A match closes with OrdersMatched; the taker's fill already reset the maker list.
    case V2_KIND.v3OrdersMatched:
      tx.makers.length = 0;
      return;
    case V2_KIND.v2PositionsSplit:
      return deriveV2Split(ctx, clock, event);
    case V2_KIND.v2PositionsMerged:
      return deriveV2Merge(ctx, clock, event);
    case V2_KIND.v2PositionRedeemed:
      return deriveV2Redeemed(ctx, clock, tx, event);
    case V2_KIND.v2AutoRedemption:
      return deriveV2AutoRedemption(ctx, clock, tx, event);
    case V2_KIND.v2ConditionResolved:
      return deriveV2ConditionResolved(ctx, clock, event);
    case V2_KIND.negRiskRemainingDerivableAsNo:
      return deriveRemainingAsNo(ctx, clock, event);
    case V2_KIND.negRiskSyntheticDerivableAsYes:
      return resolveV2(ctx, clock, event.conditionId, [RESULT_DENOMINATOR, 0]);
    case V2_KIND.comboConditionPrepared:
      return deriveComboPrepared(ctx, event);
    case V2_KIND.v2MigrationConditionRegistered:
      return deriveMigrationRegistered(ctx, event);
    // Repeated by the events that follow them (FeeCharged by the fills, ResultReported by ConditionResolved), or
    // facts the fold does not need (an event's preparation: its conditions are known from their own events).
    case V2_KIND.v3FeeCharged:
    case V2_KIND.v2ResultReported:
    case V2_KIND.v2EventPrepared:
      return;
    // The Router's own events say who called it: the modules' events, in the same call, name the end user.
    case V2_KIND.routerPositionSplit:
    case V2_KIND.routerPositionsMerged:
    case V2_KIND.routerPositionRedeemed:
    case V2_KIND.routerHorizontalSplit:
    case V2_KIND.routerHorizontalMerge:
    case V2_KIND.routerPositionConverted:
    case V2_KIND.routerCollateralReturned:
      return;
    case V2_KIND.comboSplitOnCondition:
      return deriveSplitOnCondition(ctx, clock, event);
    case V2_KIND.comboMergedOnCondition:
      return deriveMergedOnCondition(ctx, clock, event);
    case V2_KIND.comboSplitOnEvent:
      return deriveSplitOnEvent(ctx, clock, event);
    case V2_KIND.comboMergedOnEvent:
      return deriveMergedOnEvent(ctx, clock, event);
    case V2_KIND.comboConvertedOnEvent:
      return deriveConvertedOnEvent(ctx, clock, event);
    case V2_KIND.comboExtracted:
      return deriveExtracted(ctx, clock, event);
    case V2_KIND.comboInjected:
      return deriveInjected(ctx, clock, event);
    case V2_KIND.comboConvertedToYesBasket:
      return deriveConvertedToYesBasket(ctx, clock, event);
    case V2_KIND.comboMergedFromYesBasket:
      return deriveMergedFromYesBasket(ctx, clock, event);
    case V2_KIND.comboCompressed:
      return deriveCompressed(ctx, clock, event);
    case V2_KIND.comboWrapped:
      return deriveWrapped(ctx, clock, event);
    case V2_KIND.comboUnwrapped:
      return deriveUnwrapped(ctx, clock, event);
    case V2_KIND.v2PositionMigrated:
      return derivePositionMigrated(ctx, clock, event);
    // A migration condition's result comes with ConditionResolved in the same call.
    case V2_KIND.v2MigrationResolved:
      return;
    case V2_KIND.negRiskHorizontalSplit:
    case V2_KIND.negRiskHorizontalMerge:
      return deriveHorizontal(ctx, clock, event);
    case V2_KIND.negRiskPositionConverted:
      return derivePositionConverted(ctx, clock, event);
    default: {
      const unknown: never = event;
      throw new AssertionFailure(
        `deriveV2Event: unknown event kind in block ${clock.block}: ${JSON.stringify(unknown)}`,
      );
    }
  }
}

function deriveV2TransferSingle(ctx: DeriveContext, clock: BlockClock, event: V2TransferSingle): void {
  if (!isWalletTransfer(ctx, event.operator, event.from, event.to)) return ctx.sink.skip('plumbing');
  if (!ensureV2Position(ctx, event.id)) return ctx.sink.skip('unsupportedV2Position');
  deriveTransfer(ctx, clock, event.logIndex, event.from, event.to, event.id, event.amount);
}

function deriveV2TransferBatch(ctx: DeriveContext, clock: BlockClock, event: V2TransferBatch): void {
  if (!isWalletTransfer(ctx, event.operator, event.from, event.to)) return ctx.sink.skip('plumbing');
  for (let i = 0; i < event.ids.length; i++) {
    if (!ensureV2Position(ctx, event.ids[i]!)) {
      ctx.sink.skip('unsupportedV2Position');
      continue;
    }
    deriveTransfer(ctx, clock, event.logIndex, event.from, event.to, event.ids[i]!, event.amounts[i] ?? 0);
  }
}

/**
 * A split's YES goes to recipient0 and its NO to recipient1: a split by recipient0 (0.5 a side, docs/design.md 10),
 * then its NO moved on as a transfer when recipient1 is another wallet. Recipients that are the stack's contracts (the
 * exchange settling a same-side match) make it plumbing.
 */
function deriveV2Split(ctx: DeriveContext, clock: BlockClock, event: V2PositionsSplit): void {
  if (ctx.isVenueContract(event.recipient0) || ctx.isVenueContract(event.recipient1)) return ctx.sink.skip('plumbing');
  const market = ensureV2Condition(ctx, event.conditionId);
  if (!market) return ctx.sink.skip('unsupportedV2Position');
  const tokens = market.tokens!;
  // A V2 condition's tokens are its YES and NO (ensureV2Condition); the amount a decoded uint.
  assert(tokens.length === 2, "a V2 split mints a condition's YES and NO");
  assert(Number.isSafeInteger(event.amount) && event.amount >= 0, 'a V2 split moves a decoded amount');
  ctx.sink.positionEvent({
    kind: POSITION_EVENT.split,
    wallet: event.recipient0,
    ts: clock.ts,
    block: clock.block,
    logIndex: event.logIndex,
    market: market.conditionId,
    tokens,
    markets: [],
    amount: event.amount,
    viaAdapter: false,
  });
  if (event.recipient1 !== event.recipient0)
    deriveTransfer(ctx, clock, event.logIndex, event.recipient0, event.recipient1, tokens[1]!, event.amount);
}

/**
 * The neg-risk module's event-wide split (pUSD for `amount` YES of every outcome, Other included) or merge (the
 * reverse): a split or merge of a full set whose tokens are in markets of their own, for the recipient. Basis is
 * shared evenly, as for any split (section 3); a neg-risk split's basis counts as approximated (spec 2.2).
 */
function deriveHorizontal(
  ctx: DeriveContext,
  clock: BlockClock,
  event: NegRiskHorizontalSplit | NegRiskHorizontalMerge,
): void {
  if (ctx.isVenueContract(event.recipient)) return ctx.sink.skip('plumbing');
  const tokens = eventYesLegs(event.eventId);
  const markets: string[] = [];
  for (const token of tokens) {
    const market = ensureV2Position(ctx, token);
    if (!market) return ctx.sink.skip('unsupportedV2Position');
    markets.push(market.conditionId);
  }
  // eventYesLegs lists every outcome, the synthetic Other included, so a set has a leg at least; each leg its market.
  assert(tokens.length > 0 && markets.length === tokens.length, "a horizontal set names each leg's market");
  assert(Number.isSafeInteger(event.amount) && event.amount >= 0, 'a horizontal move is of a decoded amount');
  const base = {
    wallet: event.recipient,
    ts: clock.ts,
    block: clock.block,
    logIndex: event.logIndex,
    market: markets[0]!,
    tokens,
    markets,
    amount: event.amount,
  };
  ctx.sink.positionEvent(
    event.kind === V2_KIND.negRiskHorizontalMerge
      ? { kind: POSITION_EVENT.merge, ...base }
      : { kind: POSITION_EVENT.split, ...base, viaAdapter: true },
  );
}

function deriveV2Merge(ctx: DeriveContext, clock: BlockClock, event: V2PositionsMerged): void {
  if (ctx.isVenueContract(event.recipient)) return ctx.sink.skip('plumbing');
  const market = ensureV2Condition(ctx, event.conditionId);
  if (!market) return ctx.sink.skip('unsupportedV2Position');
  assert(market.tokens !== null && market.tokens.length === 2, "a V2 merge burns a condition's YES and NO");
  assert(Number.isSafeInteger(event.amount) && event.amount >= 0, 'a V2 merge moves a decoded amount');
  ctx.sink.positionEvent({
    kind: POSITION_EVENT.merge,
    wallet: event.recipient,
    ts: clock.ts,
    block: clock.block,
    logIndex: event.logIndex,
    market: market.conditionId,
    tokens: market.tokens!,
    markets: [],
    amount: event.amount,
  });
}

/**
 * `amount` of one position redeemed for the payout the module computed (docs/design.md 10), exact to the micro-unit.
 */
function emitV2Redemption(
  ctx: DeriveContext,
  clock: BlockClock,
  logIndex: number,
  wallet: string,
  positionId: string,
  amount: number,
  payout: number,
): void {
  const market = ensureV2Position(ctx, positionId);
  if (!market) return ctx.sink.skip('unsupportedV2Position');
  if (amount === 0) return ctx.sink.skip('emptyFill');
  // Decoded uints, or the sum of an auto-redeemed position's: the reducer divides by the amount.
  assert(amount > 0, 'a V2 redemption redeems shares');
  assert(Number.isSafeInteger(payout) && payout >= 0, 'a V2 redemption pays a decoded amount');
  ctx.sink.positionEvent({
    kind: POSITION_EVENT.redemption,
    wallet,
    ts: clock.ts,
    block: clock.block,
    logIndex,
    market: market.conditionId,
    tokens: [positionId],
    numerators: [payout],
    denominator: amount,
    amounts: [amount],
    payout,
  });
}

function deriveV2Redeemed(ctx: DeriveContext, clock: BlockClock, tx: TxContext, event: V2PositionRedeemed): void {
  // Auto-redeemed: the module names the AutoRedeemer; its Redemption event, next, names the holder.
  assert(Number.isSafeInteger(event.amount) && event.amount >= 0, 'a V2 redemption redeems a decoded amount');
  if (event.recipient === ctx.addresses.autoRedeemer) {
    tx.autoRedeemed.set(event.positionId, (tx.autoRedeemed.get(event.positionId) ?? 0) + event.amount);
    return;
  }
  if (ctx.isVenueContract(event.recipient)) return ctx.sink.skip('plumbing');
  emitV2Redemption(ctx, clock, event.logIndex, event.recipient, event.positionId, event.amount, event.payout);
}

function deriveV2AutoRedemption(ctx: DeriveContext, clock: BlockClock, tx: TxContext, event: V2AutoRedemption): void {
  const amount = tx.autoRedeemed.get(event.positionId);
  if (amount === undefined) return ctx.sink.skip('unresolvedRedemption');
  // Summed from this transaction's redemptions for the AutoRedeemer (deriveV2Redeemed), each a decoded uint.
  assert(amount >= 0, "an auto-redemption's amount sums redeemed amounts");
  tx.autoRedeemed.delete(event.positionId);
  emitV2Redemption(ctx, clock, event.logIndex, event.from, event.positionId, amount, event.payout);
}

/** A leg's result [yes, no] out of 1,000,000, the first time it is reported; `resolvedAt` is that block's time. */
function resolveV2(ctx: DeriveContext, clock: BlockClock, word: string, result: number[]): void {
  const market = ensureV2Condition(ctx, word);
  if (!market) return ctx.sink.skip('unsupportedV2Position');
  if (market.payoutNumerators !== null) return;
  setResult(market, clock, [result[0] ?? 0, result[1] ?? 0]);
  ctx.registry.putMarket(market);
}

function setResult(market: MarketRecord, clock: BlockClock, result: number[]): void {
  // resolveV2 sets a leg's result the first time it is reported, as its two numbers [yes, no].
  assert(market.payoutNumerators === null, "a V2 condition's result is set once");
  assert(result.length === 2, 'a V2 result is [yes, no]');
  market.payoutNumerators = result;
  market.payoutDenominator = RESULT_DENOMINATOR;
  market.resolvedAt = clock.ts;
  market.resolvedBlock = clock.block;
}

function deriveV2ConditionResolved(ctx: DeriveContext, clock: BlockClock, event: V2ConditionResolved): void {
  resolveV2(ctx, clock, event.conditionId, event.result);
}

/** Once one condition of a neg-risk event resolves YES, every other, the synthetic Other included, is NO. */
function deriveRemainingAsNo(ctx: DeriveContext, clock: BlockClock, event: NegRiskRemainingDerivableAsNo): void {
  // The word a bytes29 event id is kept in: its first 0x + 58 hex are the id.
  assert(event.eventId.length === 66, 'a neg-risk event is named by its 32-byte word');
  const eventId = event.eventId.slice(0, 60);
  const arity = v2ArityOf(eventId);
  for (let index = 0; index <= arity; index++)
    resolveV2(ctx, clock, v2IdWord(v2EventConditionId(eventId, index)), [0, RESULT_DENOMINATOR]);
}

function deriveComboPrepared(ctx: DeriveContext, event: ComboConditionPrepared): void {
  const market = ensureV2Condition(ctx, event.conditionId);
  if (!market) return ctx.sink.skip('unsupportedV2Position');
  if (market.v2!.legs !== null) return;
  // Position ids as the log keeps them: the legs a combo's later moves build position ids from.
  assert(
    event.legs.every((leg) => leg.length === 64),
    "a combo's legs are position ids",
  );
  market.v2!.legs = [...event.legs];
  ctx.registry.putMarket(market);
}

function deriveMigrationRegistered(ctx: DeriveContext, event: V2MigrationConditionRegistered): void {
  const market = ensureV2Condition(ctx, event.v2ConditionId);
  if (!market) return ctx.sink.skip('unsupportedV2Position');
  if (market.v2!.legacyConditionId !== null) return;
  // A decoded bytes32 (0x + 64 hex): the key a CTF condition's record has.
  assert(event.legacyConditionId.length === 66, 'a migration names a CTF condition id');
  market.v2!.legacyConditionId = event.legacyConditionId;
  ctx.registry.putMarket(market);
  const legacy = ctx.registry.market(event.legacyConditionId);
  if (legacy) linkMigration(ctx, legacy, market.conditionId);
}
