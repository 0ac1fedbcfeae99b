// Protocol V2 structuring moves, compress and migration (docs/design.md 10, docs/venue-v2.md 1.7): what a
// CombinatorialModule call or a CTF migration burns and mints, worked out from the event and the combos' stored legs as
// the module computes them (its _insertLeg, _removeLeg, _flipLeg and basket order). The holder whose shares are burned
// is the caller when it is a wallet, else the first recipient (the Router passes its caller's outputs on); outputs for
// another recipient reach it as a transfer. Basis moves as foldRestructure says. The neg-risk module's conversion
// is one of these moves too.
import type {
  ComboCompressed,
  ComboConvertedOnEvent,
  ComboConvertedToYesBasket,
  ComboExtracted,
  ComboInjected,
  ComboMergedFromYesBasket,
  ComboMergedOnCondition,
  ComboMergedOnEvent,
  ComboSplitOnCondition,
  ComboSplitOnEvent,
  ComboUnwrapped,
  ComboWrapped,
  NegRiskPositionConverted,
  V2PositionMigrated,
} from '../chain/v2ChainEvent.js';
import {
  canonicalLegs,
  comboConditionId,
  v2ArityOf,
  v2EventConditionId,
  v2OppositeToken,
  v2PositionId,
} from '../chain/v2PositionIds.js';
import { POSITION_EVENT } from '../reducers/positionEvent.js';
import type { BlockClock, DeriveContext } from './deriveContext.js';
import { deriveTransfer } from './deriveCtfEvent.js';
import { ensureCondition } from './registerCondition.js';
import { ensureV2Condition, ensureV2Position, linkMigration } from './registerV2Condition.js';
import { assert } from '../assert.js';

interface Output {
  token: string;
  amount: number;
  to: string;
}
interface MoveOptions {
  cash: number;
  approx: boolean;
  migrated: boolean;
}
const STRUCTURING: MoveOptions = { cash: 0, approx: true, migrated: false };
const EXACT: MoveOptions = { cash: 0, approx: false, migrated: false };

const yesOf = (word: string) => v2PositionId(word.slice(0, 64), 0);
const noOf = (word: string) => v2PositionId(word.slice(0, 64), 1);
/** The YES position of the combo of `legs` (canonical order), as the module stores and mints it. */
const comboYes = (legs: string[]) => v2PositionId(comboConditionId(canonicalLegs(legs)), 0);

function legsOf(ctx: DeriveContext, word: string): string[] | null {
  // A condition's key: the word of the bytes31 id the module's event names.
  assert(word.length === 66, 'a combo is named by its 32-byte word');
  return ctx.registry.market(word)?.v2?.legs ?? null;
}

function holderOf(ctx: DeriveContext, caller: string, firstRecipient: string): string {
  // A decoded address (0x + 40 hex): the module's caller, a wallet or the Router.
  assert(caller.length === 42, "a move's caller is an address");
  return ctx.isVenueContract(caller) ? firstRecipient : caller;
}

/** One restructure event for the holder, then each output for someone else moved on to it. */
function emitMove(
  ctx: DeriveContext,
  clock: BlockClock,
  logIndex: number,
  holder: string,
  burns: ReadonlyArray<{ token: string; amount: number; market?: string }>,
  outputs: Output[],
  options: MoveOptions,
): void {
  if (ctx.isVenueContract(holder)) return ctx.sink.skip('plumbing');
  // What a module pays out is a decoded uint (0 for every move but a compress).
  assert(Number.isSafeInteger(options.cash) && options.cash >= 0, "a move's cash is a decoded amount");
  const burnMarkets: string[] = [];
  for (const burn of burns) {
    // Each amount is the event's decoded amount, the basis the reducer moves in proportion to it.
    assert(Number.isSafeInteger(burn.amount) && burn.amount >= 0, 'a move burns a decoded amount');
    const market = burn.market ?? ensureV2Position(ctx, burn.token)?.conditionId;
    if (market === undefined) return ctx.sink.skip('unsupportedV2Position');
    burnMarkets.push(market);
  }
  const mintMarkets: string[] = [];
  for (const output of outputs) {
    assert(Number.isSafeInteger(output.amount) && output.amount >= 0, 'a move mints a decoded amount');
    const market = ensureV2Position(ctx, output.token);
    if (!market) return ctx.sink.skip('unsupportedV2Position');
    mintMarkets.push(market.conditionId);
  }
  // foldRestructure reads a burned or minted token's market at the same index.
  assert(
    burnMarkets.length === burns.length && mintMarkets.length === outputs.length,
    "a move names each leg's market",
  );
  ctx.sink.positionEvent({
    kind: POSITION_EVENT.restructure,
    wallet: holder,
    ts: clock.ts,
    block: clock.block,
    logIndex,
    market: burnMarkets[0] ?? '',
    burnTokens: burns.map((burn) => burn.token),
    burnMarkets,
    burnAmounts: burns.map((burn) => burn.amount),
    mintTokens: outputs.map((output) => output.token),
    mintMarkets,
    mintAmounts: outputs.map((output) => output.amount),
    cash: options.cash,
    approx: options.approx,
    migrated: options.migrated,
  });
  for (const output of outputs) {
    if (output.to === holder || output.amount === 0) continue;
    if (ctx.isVenueContract(output.to)) continue;
    deriveTransfer(ctx, clock, logIndex, holder, output.to, output.token, output.amount);
  }
}

export function deriveSplitOnCondition(ctx: DeriveContext, clock: BlockClock, event: ComboSplitOnCondition): void {
  // Words the log keeps bytes31 ids in (v2ChainEvent.ts): yesOf keeps their first 31 bytes.
  assert(event.parentConditionId.length === 66, 'a combo split names its parent by its word');
  const { amount } = event;
  emitMove(
    ctx,
    clock,
    event.logIndex,
    holderOf(ctx, event.user, event.recipient0),
    [{ token: yesOf(event.parentConditionId), amount }],
    [
      { token: yesOf(event.childYesConditionId), amount, to: event.recipient0 },
      { token: yesOf(event.childNoConditionId), amount, to: event.recipient1 },
    ],
    STRUCTURING,
  );
}

export function deriveMergedOnCondition(ctx: DeriveContext, clock: BlockClock, event: ComboMergedOnCondition): void {
  assert(event.parentConditionId.length === 66, 'a combo merge names its parent by its word');
  const { amount } = event;
  const burns = [
    { token: yesOf(event.childYesConditionId), amount },
    { token: yesOf(event.childNoConditionId), amount },
  ];
  const outputs = [{ token: yesOf(event.parentConditionId), amount, to: event.recipient }];
  emitMove(ctx, clock, event.logIndex, holderOf(ctx, event.user, event.recipient), burns, outputs, STRUCTURING);
}

/** The YES legs of a neg-risk event's outcomes, the synthetic Other (index arity) included. */
export function eventYesLegs(eventWord: string): string[] {
  // The word a bytes29 event id is kept in: 0x + 58 hex of id, then zero bytes.
  assert(eventWord.length === 66, 'a neg-risk event is named by its 32-byte word');
  const eventId = eventWord.slice(0, 60);
  const legs: string[] = [];
  for (let index = 0; index <= v2ArityOf(eventId); index++)
    legs.push(v2PositionId(v2EventConditionId(eventId, index), 0));
  // Every outcome's YES, the synthetic Other (index arity) included: one leg at least, each a 64-hex position id.
  assert(legs.length === v2ArityOf(eventId) + 1 && legs[0]!.length === 64, "an event's legs are its outcomes' YES");
  return legs;
}

export function deriveSplitOnEvent(ctx: DeriveContext, clock: BlockClock, event: ComboSplitOnEvent): void {
  const parent = legsOf(ctx, event.parentConditionId);
  if (!parent) return ctx.sink.skip('unknownCondition');
  const { amount } = event;
  const outputs = eventYesLegs(event.eventId).map((leg, i) => ({
    token: comboYes([...parent, leg]),
    amount,
    to: event.recipients[i] ?? event.recipients[0]!,
  }));
  const holder = holderOf(ctx, event.user, event.recipients[0]!);
  emitMove(
    ctx,
    clock,
    event.logIndex,
    holder,
    [{ token: yesOf(event.parentConditionId), amount }],
    outputs,
    STRUCTURING,
  );
}

export function deriveMergedOnEvent(ctx: DeriveContext, clock: BlockClock, event: ComboMergedOnEvent): void {
  const parent = legsOf(ctx, event.parentConditionId);
  if (!parent) return ctx.sink.skip('unknownCondition');
  const { amount } = event;
  const burns = eventYesLegs(event.eventId).map((leg) => ({ token: comboYes([...parent, leg]), amount }));
  const outputs = [{ token: yesOf(event.parentConditionId), amount, to: event.recipient }];
  emitMove(ctx, clock, event.logIndex, holderOf(ctx, event.user, event.recipient), burns, outputs, STRUCTURING);
}

/** YES(P and NO(e_k)) -> YES(P and YES(e_i)) for every other outcome i; `conditionIndex` is the leg's place in P. */
export function deriveConvertedOnEvent(ctx: DeriveContext, clock: BlockClock, event: ComboConvertedOnEvent): void {
  const parent = legsOf(ctx, event.parentConditionId);
  const source = parent?.[event.conditionIndex];
  if (!parent || !source) return ctx.sink.skip('unknownCondition');
  const base = parent.filter((_, i) => i !== event.conditionIndex);
  // The source leg is at conditionIndex (found above): the other legs are the parent's less that one.
  assert(base.length === parent.length - 1, 'a conversion on an event drops one leg of its parent');
  const { amount } = event;
  const sourceYes = v2OppositeToken(source);
  const outputs = eventYesLegs(event.eventId)
    .filter((leg) => leg !== sourceYes)
    .map((leg, i) => ({ token: comboYes([...base, leg]), amount, to: event.recipients[i] ?? event.recipients[0]! }));
  const holder = holderOf(ctx, event.user, event.recipients[0]!);
  emitMove(
    ctx,
    clock,
    event.logIndex,
    holder,
    [{ token: yesOf(event.parentConditionId), amount }],
    outputs,
    STRUCTURING,
  );
}

/** The neg-risk module's conversion: NO of the outcome at `conditionIndex` -> YES of every other outcome. */
export function derivePositionConverted(ctx: DeriveContext, clock: BlockClock, event: NegRiskPositionConverted): void {
  const legs = eventYesLegs(event.eventId);
  const source = legs[event.conditionIndex];
  if (!source) return ctx.sink.skip('unknownCondition');
  const { amount } = event;
  const outputs = legs
    .filter((_, i) => i !== event.conditionIndex)
    .map((token) => ({ token, amount, to: event.recipient }));
  // The converted outcome's NO goes in, every other outcome's YES comes out.
  assert(outputs.length === legs.length - 1, "a conversion mints every other outcome's YES");
  emitMove(
    ctx,
    clock,
    event.logIndex,
    holderOf(ctx, event.initiator, event.recipient),
    [{ token: v2OppositeToken(source), amount }],
    outputs,
    STRUCTURING,
  );
}

/** NO(P and d) -> NO(P) + YES(P and not d): the event names both outputs' conditions. */
export function deriveExtracted(ctx: DeriveContext, clock: BlockClock, event: ComboExtracted): void {
  // Words the log keeps bytes31 ids in: noOf and yesOf keep their first 31 bytes.
  assert(event.fullConditionId.length === 66 && event.reducedConditionId.length === 66, 'combos are named by words');
  const { amount } = event;
  const outputs = [
    { token: noOf(event.reducedConditionId), amount, to: event.recipient0 },
    { token: yesOf(event.residualConditionId), amount, to: event.recipient1 },
  ];
  const holder = holderOf(ctx, event.user, event.recipient0);
  emitMove(ctx, clock, event.logIndex, holder, [{ token: noOf(event.fullConditionId), amount }], outputs, STRUCTURING);
}

export function deriveInjected(ctx: DeriveContext, clock: BlockClock, event: ComboInjected): void {
  assert(event.fullConditionId.length === 66 && event.residualConditionId.length === 66, 'combos are named by words');
  const { amount } = event;
  const burns = [
    { token: noOf(event.reducedConditionId), amount },
    { token: yesOf(event.residualConditionId), amount },
  ];
  const outputs = [{ token: noOf(event.fullConditionId), amount, to: event.recipient }];
  emitMove(ctx, clock, event.logIndex, holderOf(ctx, event.user, event.recipient), burns, outputs, STRUCTURING);
}

/** NO(c1 and ... and cn) -> YES(not c1), YES(c1 and not c2), ..., YES(c1 and ... and not cn), in leg order. */
function yesBasket(legs: string[]): string[] {
  return legs.map((leg, i) => comboYes([...legs.slice(0, i), v2OppositeToken(leg)]));
}

export function deriveConvertedToYesBasket(
  ctx: DeriveContext,
  clock: BlockClock,
  event: ComboConvertedToYesBasket,
): void {
  const legs = legsOf(ctx, event.fullConditionId);
  if (!legs) return ctx.sink.skip('unknownCondition');
  const { amount } = event;
  const outputs = yesBasket(legs).map((token, i) => ({
    token,
    amount,
    to: event.recipients[i] ?? event.recipients[0]!,
  }));
  const holder = holderOf(ctx, event.user, event.recipients[0]!);
  emitMove(ctx, clock, event.logIndex, holder, [{ token: noOf(event.fullConditionId), amount }], outputs, STRUCTURING);
}

export function deriveMergedFromYesBasket(
  ctx: DeriveContext,
  clock: BlockClock,
  event: ComboMergedFromYesBasket,
): void {
  const legs = legsOf(ctx, event.fullConditionId);
  if (!legs) return ctx.sink.skip('unknownCondition');
  const { amount } = event;
  const burns = yesBasket(legs).map((token) => ({ token, amount }));
  const outputs = [{ token: noOf(event.fullConditionId), amount, to: event.recipient }];
  emitMove(ctx, clock, event.logIndex, holderOf(ctx, event.user, event.recipient), burns, outputs, STRUCTURING);
}

/** At the payout the module computed: its cash realizes against its share of the basis, the rest goes on. */
export function deriveCompressed(ctx: DeriveContext, clock: BlockClock, event: ComboCompressed): void {
  // Position ids as the log keeps them: the new one all zeros when the compress leaves no position.
  assert(event.oldPositionId.length === 64 && event.newPositionId.length === 64, 'a compress names position ids');
  const outputs = /^0+$/.test(event.newPositionId)
    ? []
    : [{ token: event.newPositionId, amount: event.positionAmount, to: event.recipient }];
  emitMove(
    ctx,
    clock,
    event.logIndex,
    holderOf(ctx, event.user, event.recipient),
    [{ token: event.oldPositionId, amount: event.amount }],
    outputs,
    { cash: event.collateralOut, approx: false, migrated: false },
  );
}

export function deriveWrapped(ctx: DeriveContext, clock: BlockClock, event: ComboWrapped): void {
  const burns = [{ token: event.underlyingPositionId, amount: event.amount }];
  const outputs = [{ token: event.combinatorialPositionId, amount: event.amount, to: event.recipient }];
  emitMove(ctx, clock, event.logIndex, holderOf(ctx, event.user, event.recipient), burns, outputs, EXACT);
}

export function deriveUnwrapped(ctx: DeriveContext, clock: BlockClock, event: ComboUnwrapped): void {
  const burns = [{ token: event.combinatorialPositionId, amount: event.amount }];
  const outputs = [{ token: event.underlyingPositionId, amount: event.amount, to: event.recipient }];
  emitMove(ctx, clock, event.logIndex, holderOf(ctx, event.user, event.recipient), burns, outputs, EXACT);
}

/**
 * A CTF position moved into its migration condition's V2 position (migratePositions): the CTF shares leave with
 * their basis, which the V2 shares carry exactly; the V2 position is marked `migrated`.
 */
export function derivePositionMigrated(ctx: DeriveContext, clock: BlockClock, event: V2PositionMigrated): void {
  const market = ensureV2Condition(ctx, event.conditionId);
  const legacy = market?.v2?.legacyConditionId;
  if (!market || !legacy) return ctx.sink.skip('unknownCondition');
  const ctf = ensureCondition(ctx, legacy, null);
  // ensureCondition answers the legacy condition with its two outcome tokens.
  assert(ctf.tokens !== null && ctf.tokens.length === 2, "a migration's CTF condition has its two tokens");
  linkMigration(ctx, ctf, market.conditionId);
  const token = ctf.tokens?.[event.outcomeIndex];
  if (!token) return ctx.sink.skip('unknownCondition');
  emitMove(
    ctx,
    clock,
    event.logIndex,
    event.from,
    [{ token, amount: event.amount, market: legacy }],
    [{ token: event.positionId, amount: event.amount, to: event.from }],
    { cash: 0, approx: false, migrated: true },
  );
}
