// Contract calls on the CTF and the NegRiskAdapter, each one transaction, emitting what the contracts emit
// (docs/venue.md 1.5, 1.6, 2.1, 2.4, 4) and moving the wallets' holdings to match:
// - a wallet's own split/merge on the CTF: TransferBatch mint/burn (operator = wallet) + PositionSplit/Merge;
// - on the adapter (neg-risk): the CTF's own split/merge with stakeholder = adapter (plumbing), the batch move
//   between adapter and wallet, then the adapter's PositionSplit/Merge with stakeholder = wallet;
// - redemptions, transfers, conversions, condition preparation and resolution.
// Logs of contracts the capture does not hold (USDC, WrappedCollateral, the UMA adapter) leave index gaps.
import { NO_TOKEN_BURN_ADDRESS, ZERO_ADDRESS } from '../../engine/chain/venueAddresses.js';
import { EXCHANGE, KIND, type ExchangeCode } from '../../engine/chain/chainEvent.js';
import { NEG_RISK_OPERATOR, type DemoContext } from './demoContext.js';
import {
  logConditionPreparation,
  logConditionResolution,
  logCtfMerge,
  logCtfRedemption,
  logCtfSplit,
  logTransferBatch,
  logTransferSingle,
} from './demoLogs.js';
import { addBalance, type DemoEvent, type DemoMarket } from './demoMarkets.js';

/** ASCII text as '0x' hex bytes (adapter metadata). */
export function asciiHex(text: string): string {
  let out = '0x';
  for (let i = 0; i < text.length; i++) out += (text.charCodeAt(i) & 0x7f).toString(16).padStart(2, '0');
  return out;
}

/** ConditionPreparation of a standard market (the UMA adapter's initialize), then its V1 registration if any. */
export function prepareCondition(ctx: DemoContext, market: DemoMarket, register: boolean): void {
  ctx.capture.beginTx();
  ctx.capture.skipLogs(1); // the oracle adapter's QuestionInitialized
  logConditionPreparation(ctx, market.conditionId, market.oracle, market.questionId);
  if (register) registerTokens(ctx, market);
}

/** The operator's registerToken on the market's V1 exchange: TokenRegistered both ways round. */
export function registerTokens(ctx: DemoContext, market: DemoMarket): void {
  const exchange: ExchangeCode = market.negRisk ? EXCHANGE.negRisk : EXCHANGE.ctf;
  const address = market.negRisk ? ctx.addresses.negRiskExchange : ctx.addresses.ctfExchange;
  const [token0, token1] = market.tokens;
  ctx.capture.beginTx();
  ctx.capture.log(
    {
      kind: KIND.tokenRegistered,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      exchange,
      token0,
      token1,
      conditionId: market.conditionId,
    },
    address,
  );
  ctx.capture.log(
    {
      kind: KIND.tokenRegistered,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      exchange,
      token0: token1,
      token1: token0,
      conditionId: market.conditionId,
    },
    address,
  );
}

/** prepareMarket then prepareQuestion for each question (QuestionPrepared + the CTF's ConditionPreparation). */
export function prepareNegRiskEvent(ctx: DemoContext, event: DemoEvent, metadata: string, register: boolean): void {
  const adapter = ctx.addresses.negRiskAdapter;
  ctx.capture.beginTx();
  ctx.capture.log(
    {
      kind: KIND.marketPrepared,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      marketId: event.marketId,
      oracle: NEG_RISK_OPERATOR,
      feeBips: event.feeBips,
      data: metadata,
    },
    adapter,
  );
  for (const question of event.questions) {
    ctx.capture.beginTx();
    ctx.capture.log(
      {
        kind: KIND.questionPrepared,
        logIndex: 0,
        txIndex: 0,
        tx: '',
        marketId: event.marketId,
        questionId: question.questionId,
        index: question.questionIndex,
        data: asciiHex(`q${question.questionIndex}:${question.seq}`),
      },
      adapter,
    );
    logConditionPreparation(ctx, question.conditionId, adapter, question.questionId);
  }
  if (register) for (const question of event.questions) registerTokens(ctx, question);
}

/** The oracle reports: ConditionResolution; for a neg-risk question the adapter then emits OutcomeReported. */
export function resolveMarket(ctx: DemoContext, market: DemoMarket): void {
  ctx.capture.beginTx();
  if (market.negRisk) {
    const adapter = ctx.addresses.negRiskAdapter;
    logConditionResolution(ctx, market.conditionId, adapter, market.questionId, market.payouts);
    ctx.capture.log(
      {
        kind: KIND.outcomeReported,
        logIndex: 0,
        txIndex: 0,
        tx: '',
        marketId: market.event!.marketId,
        questionId: market.questionId,
        outcome: market.payouts[0]! > 0,
      },
      adapter,
    );
  } else {
    ctx.capture.skipLogs(1); // the oracle adapter's own resolution event
    logConditionResolution(ctx, market.conditionId, market.oracle, market.questionId, market.payouts);
  }
  market.resolved = true;
}

/** A wallet splits `amount` collateral into both outcomes (CTF directly, or the adapter for neg-risk). */
export function splitPosition(ctx: DemoContext, market: DemoMarket, wallet: number, amount: number): void {
  const address = ctx.wallets[wallet]!.address;
  ctx.capture.beginTx();
  ctx.capture.skipLogs(1); // USDC in
  if (market.negRisk) {
    const adapter = ctx.addresses.negRiskAdapter;
    ctx.capture.skipLogs(1); // WrappedCollateral mint
    logTransferBatch(ctx, adapter, ZERO_ADDRESS, adapter, market.tokens, [amount, amount]);
    logCtfSplit(ctx, adapter, ctx.addresses.wrappedCollateral, market.conditionId, amount);
    logTransferBatch(ctx, adapter, adapter, address, market.tokens, [amount, amount]);
    ctx.capture.log(
      {
        kind: KIND.adapterSplit,
        logIndex: 0,
        txIndex: 0,
        tx: '',
        stakeholder: address,
        conditionId: market.conditionId,
        amount,
      },
      adapter,
    );
  } else {
    logTransferBatch(ctx, address, ZERO_ADDRESS, address, market.tokens, [amount, amount]);
    logCtfSplit(ctx, address, ctx.addresses.usdc, market.conditionId, amount);
  }
  addBalance(market, wallet, 0, amount);
  addBalance(market, wallet, 1, amount);
  ctx.counters.userSplits++;
}

/** A wallet merges `amount` of both outcomes back into collateral. */
export function mergePositions(ctx: DemoContext, market: DemoMarket, wallet: number, amount: number): void {
  const address = ctx.wallets[wallet]!.address;
  ctx.capture.beginTx();
  if (market.negRisk) {
    const adapter = ctx.addresses.negRiskAdapter;
    logTransferBatch(ctx, adapter, address, adapter, market.tokens, [amount, amount]);
    logTransferBatch(ctx, adapter, adapter, ZERO_ADDRESS, market.tokens, [amount, amount]);
    logCtfMerge(ctx, adapter, ctx.addresses.wrappedCollateral, market.conditionId, amount);
    ctx.capture.skipLogs(2); // WrappedCollateral burn, USDC out
    ctx.capture.log(
      {
        kind: KIND.adapterMerge,
        logIndex: 0,
        txIndex: 0,
        tx: '',
        stakeholder: address,
        conditionId: market.conditionId,
        amount,
      },
      adapter,
    );
  } else {
    logTransferBatch(ctx, address, address, ZERO_ADDRESS, market.tokens, [amount, amount]);
    ctx.capture.skipLogs(1); // USDC out
    logCtfMerge(ctx, address, ctx.addresses.usdc, market.conditionId, amount);
  }
  addBalance(market, wallet, 0, -amount);
  addBalance(market, wallet, 1, -amount);
  ctx.counters.userMerges++;
}

/**
 * A wallet redeems its whole holding of a resolved market. CTF: a burn per non-zero outcome, then
 * PayoutRedemption(redeemer, USDC.e, 0, conditionId, [1, 2], payout). Neg-risk: the adapter pulls both
 * amounts, redeems on the CTF as itself (plumbing), then emits its PayoutRedemption with [YES, NO].
 */
export function redeemPositions(ctx: DemoContext, market: DemoMarket, wallet: number, held: [number, number]): number {
  const address = ctx.wallets[wallet]!.address;
  const [n0, n1] = market.payouts;
  const denominator = n0 + n1;
  const payout = Math.floor((held[0] * n0) / denominator) + Math.floor((held[1] * n1) / denominator);
  ctx.capture.beginTx();
  if (market.negRisk) {
    const adapter = ctx.addresses.negRiskAdapter;
    logTransferBatch(ctx, adapter, address, adapter, market.tokens, [held[0], held[1]]);
    for (let outcome = 0; outcome < 2; outcome++) {
      if (held[outcome]! > 0)
        logTransferSingle(ctx, adapter, adapter, ZERO_ADDRESS, market.tokens[outcome]!, held[outcome]!);
    }
    ctx.capture.skipLogs(1); // WrappedCollateral to the adapter
    logCtfRedemption(ctx, adapter, ctx.addresses.wrappedCollateral, market.conditionId, [1, 2], payout);
    ctx.capture.skipLogs(2); // unwrap, USDC out
    ctx.capture.log(
      {
        kind: KIND.adapterRedemption,
        logIndex: 0,
        txIndex: 0,
        tx: '',
        redeemer: address,
        conditionId: market.conditionId,
        amounts: [held[0], held[1]],
        payout,
      },
      adapter,
    );
  } else {
    for (let outcome = 0; outcome < 2; outcome++) {
      if (held[outcome]! > 0)
        logTransferSingle(ctx, address, address, ZERO_ADDRESS, market.tokens[outcome]!, held[outcome]!);
    }
    if (payout > 0) ctx.capture.skipLogs(1); // USDC out
    logCtfRedemption(ctx, address, ctx.addresses.usdc, market.conditionId, [1, 2], payout);
  }
  ctx.counters.redemptions++;
  if (payout === 0) ctx.counters.zeroPayoutRedemptions++;
  return payout;
}

/** A wallet-to-wallet ERC-1155 transfer of one outcome (operator = the sender). */
export function transferOne(
  ctx: DemoContext,
  market: DemoMarket,
  from: number,
  to: number,
  outcome: number,
  amount: number,
): void {
  const fromAddress = ctx.wallets[from]!.address;
  ctx.capture.beginTx();
  logTransferSingle(ctx, fromAddress, fromAddress, ctx.wallets[to]!.address, market.tokens[outcome]!, amount);
  addBalance(market, from, outcome, -amount);
  addBalance(market, to, outcome, amount);
  ctx.counters.transfers++;
}

/** A wallet-to-wallet batch transfer of both outcomes. */
export function transferBoth(
  ctx: DemoContext,
  market: DemoMarket,
  from: number,
  to: number,
  amounts: [number, number],
): void {
  const fromAddress = ctx.wallets[from]!.address;
  ctx.capture.beginTx();
  logTransferBatch(ctx, fromAddress, fromAddress, ctx.wallets[to]!.address, market.tokens, [amounts[0], amounts[1]]);
  for (let outcome = 0; outcome < 2; outcome++) {
    addBalance(market, from, outcome, -amounts[outcome]!);
    addBalance(market, to, outcome, amounts[outcome]!);
  }
  ctx.counters.transfers++;
}

/**
 * convertPositions(marketId, indexSet, amount) on the adapter (docs/venue.md 4): for every question outside the
 * set the adapter splits `amount` itself (plumbing), the wallet's NO of every question in the set and the
 * adapter's fresh NOs go to the NO-token burn address, and the wallet receives amount - fee of every YES outside
 * the set (the fee part goes to the vault). `inSet[i]` says whether question i's NO is converted.
 */
export function convertPositions(
  ctx: DemoContext,
  event: DemoEvent,
  wallet: number,
  inSet: boolean[],
  amount: number,
): void {
  const adapter = ctx.addresses.negRiskAdapter;
  const address = ctx.wallets[wallet]!.address;
  const fee = Math.floor((amount * event.feeBips) / 10_000);
  const out = amount - fee;
  let indexSet = 0n;
  const noIds: string[] = [];
  const yesQuestions: DemoMarket[] = [];
  event.questions.forEach((question, i) => {
    if (inSet[i]) {
      indexSet |= 1n << BigInt(i);
      noIds.push(question.tokens[1]);
    } else {
      yesQuestions.push(question);
    }
  });
  ctx.capture.beginTx();
  if (yesQuestions.length > 0) ctx.capture.skipLogs(1); // WrappedCollateral minted for the YES legs
  for (const question of yesQuestions) {
    logTransferBatch(ctx, adapter, ZERO_ADDRESS, adapter, question.tokens, [amount, amount]);
    logCtfSplit(ctx, adapter, ctx.addresses.wrappedCollateral, question.conditionId, amount);
  }
  logTransferBatch(
    ctx,
    adapter,
    address,
    NO_TOKEN_BURN_ADDRESS,
    noIds,
    noIds.map(() => amount),
  );
  if (yesQuestions.length > 0) {
    const adapterNoIds = yesQuestions.map((question) => question.tokens[1]);
    logTransferBatch(
      ctx,
      adapter,
      adapter,
      NO_TOKEN_BURN_ADDRESS,
      adapterNoIds,
      adapterNoIds.map(() => amount),
    );
  }
  if (noIds.length > 1) ctx.capture.skipLogs(fee > 0 ? 2 : 1); // collateral released to the wallet (and the vault)
  if (yesQuestions.length > 0) {
    const yesIds = yesQuestions.map((question) => question.tokens[0]);
    logTransferBatch(
      ctx,
      adapter,
      adapter,
      address,
      yesIds,
      yesIds.map(() => out),
    );
    if (fee > 0)
      logTransferBatch(
        ctx,
        adapter,
        adapter,
        ctx.addresses.negRiskVault,
        yesIds,
        yesIds.map(() => fee),
      );
  }
  ctx.capture.log(
    {
      kind: KIND.positionsConverted,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      stakeholder: address,
      marketId: event.marketId,
      indexSet: indexSet.toString(16).padStart(64, '0'),
      amount,
    },
    adapter,
  );
  event.questions.forEach((question, i) => {
    if (inSet[i]) addBalance(question, wallet, 1, -amount);
    else addBalance(question, wallet, 0, out);
  });
  ctx.counters.conversions++;
  if (fee > 0) ctx.counters.conversionsWithFee++;
}
