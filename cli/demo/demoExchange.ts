// One order-book match (matchOrders) as the exchanges emit it (docs/venue.md 1.4, 2.2, 2.3; test/fixtures/realdata's
// FeeModule transaction is the model): the taker's shares pulled in, then per maker order its shares pulled in, the
// exchange's split (MINT) or merge (MERGE) when the orders are on opposite outcomes, the proceeds and fee
// moved out, FeeCharged, the maker's OrderFilled (taker = the taker order's owner); then the taker's proceeds,
// its OrderFilled (taker = the exchange) and OrdersMatched; with a fee module as operator, the refunds last.
// ERC-1155 moves are plumbing: operator = the exchange (the adapter for the V1 neg-risk exchange, whose "CTF"
// is the adapter). V1 fees follow CalculatorHelper (a BUY pays in shares, a SELL in USDC); V2 fees are the
// operator's, in collateral, charged to takers.
import { EXCHANGE, KIND, type ExchangeCode } from '../../engine/chain/chainEvent.js';
import { ZERO_ADDRESS } from '../../engine/chain/venueAddresses.js';
import { DEMO_FEE_RECEIVER, DEMO_FEE_RECEIVER_V2, ZERO_BYTES32, ZERO_ID, type DemoContext } from './demoContext.js';
import { logCtfMerge, logCtfSplit, logTransferBatch, logTransferSingle } from './demoLogs.js';
import { addBalance, type DemoMarket } from './demoMarkets.js';

export const SIDE = { buy: 0, sell: 1 } as const;
export const MATCH = { complementary: 0, mint: 1, merge: 2 } as const;
export type MatchType = (typeof MATCH)[keyof typeof MATCH];

export interface BookOrder {
  wallet: number;
  side: 0 | 1;
  outcome: 0 | 1;
  /** Shares (micro) this order gives or gets in the match. */
  shares: number;
  /** USDC (micro) this order gives or gets in the match, before fees. */
  usdc: number;
  /** The order's price for its own outcome, in thousandths. */
  price: number;
  /** V1: the fee rate the order was signed with. */
  feeBps: number;
  /** V1: the fee rate the fee module's operator actually keeps (the rest is refunded). */
  keptBps: number;
  fee: number;
  kept: number;
  hash: string;
  /** For maker orders: how the exchange matches it against the taker. */
  match: MatchType;
}

export interface MatchRoute {
  v2: boolean;
  /** The fee module running the match as operator (V1 only), or null. */
  module: string | null;
  /** V2 builder code (bytes32). */
  builder: string;
}

const ONE = 10n ** 18n;
const BPS = 10_000n;
const MILLI_TO_WAD = 10n ** 15n;

/** CalculatorHelper.calculateFee: p is the order's price scaled by 1e18 (BigInt: the products pass 2^53). */
function v1Fee(feeBps: number, side: number, priceWad: bigint, outcomeTokens: number): number {
  if (feeBps === 0 || priceWad <= 0n || priceWad > ONE) return 0;
  const low = priceWad < ONE - priceWad ? priceWad : ONE - priceWad;
  const numerator = BigInt(feeBps) * low * BigInt(outcomeTokens);
  return Number(side === SIDE.buy ? numerator / (priceWad * BPS) : numerator / (BPS * ONE));
}

/** The V2 operator's taker fee: rate x p x (1 - p) x shares, in collateral (the sample row of docs/venue.md 2.3). */
function v2Fee(feeBps: number, price: number, shares: number): number {
  if (feeBps === 0) return 0;
  return Number((BigInt(feeBps) * BigInt(price) * BigInt(1000 - price) * BigInt(shares)) / 10_000_000_000n);
}

function exchangeOf(ctx: DemoContext, market: DemoMarket, v2: boolean): [string, ExchangeCode] {
  const a = ctx.addresses;
  if (v2) return market.negRisk ? [a.negRiskExchangeV2, EXCHANGE.negRiskV2] : [a.ctfExchangeV2, EXCHANGE.ctfV2];
  return market.negRisk ? [a.negRiskExchange, EXCHANGE.negRisk] : [a.ctfExchange, EXCHANGE.ctf];
}

/** The exchange splits collateral into both outcomes (MINT): CTF directly, or through the adapter. */
function exchangeSplit(ctx: DemoContext, market: DemoMarket, exchange: string, amount: number): void {
  if (market.negRisk) {
    const adapter = ctx.addresses.negRiskAdapter;
    ctx.capture.skipLogs(2); // USDC to the adapter, WrappedCollateral mint
    logTransferBatch(ctx, adapter, ZERO_ADDRESS, adapter, market.tokens, [amount, amount]);
    logCtfSplit(ctx, adapter, ctx.addresses.wrappedCollateral, market.conditionId, amount);
    logTransferBatch(ctx, adapter, adapter, exchange, market.tokens, [amount, amount]);
    ctx.capture.log(
      {
        kind: KIND.adapterSplit,
        logIndex: 0,
        txIndex: 0,
        tx: '',
        stakeholder: exchange,
        conditionId: market.conditionId,
        amount,
      },
      adapter,
    );
  } else {
    ctx.capture.skipLogs(1); // USDC to the CTF
    logTransferBatch(ctx, exchange, ZERO_ADDRESS, exchange, market.tokens, [amount, amount]);
    logCtfSplit(ctx, exchange, ctx.addresses.usdc, market.conditionId, amount);
  }
}

/** The exchange merges both outcomes back into collateral (MERGE). */
function exchangeMerge(ctx: DemoContext, market: DemoMarket, exchange: string, amount: number): void {
  if (market.negRisk) {
    const adapter = ctx.addresses.negRiskAdapter;
    logTransferBatch(ctx, adapter, exchange, adapter, market.tokens, [amount, amount]);
    logTransferBatch(ctx, adapter, adapter, ZERO_ADDRESS, market.tokens, [amount, amount]);
    logCtfMerge(ctx, adapter, ctx.addresses.wrappedCollateral, market.conditionId, amount);
    ctx.capture.skipLogs(2); // WrappedCollateral burn, USDC to the exchange
    ctx.capture.log(
      {
        kind: KIND.adapterMerge,
        logIndex: 0,
        txIndex: 0,
        tx: '',
        stakeholder: exchange,
        conditionId: market.conditionId,
        amount,
      },
      adapter,
    );
  } else {
    logTransferBatch(ctx, exchange, exchange, ZERO_ADDRESS, market.tokens, [amount, amount]);
    ctx.capture.skipLogs(1); // USDC to the exchange
    logCtfMerge(ctx, exchange, ctx.addresses.usdc, market.conditionId, amount);
  }
}

/** Fills in each order's fee (and, under a fee module, the part the operator keeps). */
function computeFees(market: DemoMarket, taker: BookOrder, makers: BookOrder[], route: MatchRoute): void {
  if (route.v2) {
    taker.fee = v2Fee(market.v2FeeBps, taker.price, taker.shares);
    taker.kept = taker.fee;
    for (const maker of makers) maker.fee = maker.kept = 0;
    return;
  }
  for (const maker of makers) {
    if (maker.feeBps === 0) {
      maker.fee = maker.kept = 0;
      continue;
    }
    const priceWad = BigInt(maker.price) * MILLI_TO_WAD;
    maker.fee = v1Fee(maker.feeBps, maker.side, priceWad, maker.shares);
    maker.kept =
      route.module === null ? maker.fee : Math.min(maker.fee, v1Fee(maker.keptBps, maker.side, priceWad, maker.shares));
  }
  if (taker.feeBps === 0) {
    taker.fee = taker.kept = 0;
    return;
  }
  // The taker's price comes from what it actually gave and got in the match (Trading._matchOrders).
  const making = taker.side === SIDE.buy ? taker.usdc : taker.shares;
  const taking = taker.side === SIDE.buy ? taker.shares : taker.usdc;
  const priceWad =
    taker.side === SIDE.buy ? (BigInt(making) * ONE) / BigInt(taking) : (BigInt(taking) * ONE) / BigInt(making);
  taker.fee = v1Fee(taker.feeBps, taker.side, priceWad, taker.shares);
  taker.kept =
    route.module === null ? taker.fee : Math.min(taker.fee, v1Fee(taker.keptBps, taker.side, priceWad, taker.shares));
}

/** The order's proceeds leave the exchange: shares by ERC-1155 (V1 fee shares to the receiver), USDC unseen. */
function payOut(
  ctx: DemoContext,
  order: BookOrder,
  market: DemoMarket,
  operator: string,
  exchange: string,
  code: ExchangeCode,
  receiver: string,
  v2: boolean,
): void {
  const address = ctx.wallets[order.wallet]!.address;
  if (order.side === SIDE.buy) {
    const token = market.tokens[order.outcome];
    const feeShares = v2 ? 0 : order.fee;
    logTransferSingle(ctx, operator, exchange, address, token, order.shares - feeShares);
    if (feeShares > 0) logTransferSingle(ctx, operator, exchange, receiver, token, feeShares);
  } else {
    ctx.capture.skipLogs(order.fee > 0 && !v2 ? 2 : 1);
  }
  if (order.fee > 0) {
    if (v2) {
      ctx.capture.log(
        { kind: KIND.feeChargedV2, logIndex: 0, txIndex: 0, tx: '', exchange: code, receiver, amount: order.fee },
        exchange,
      );
    } else {
      const tokenId = order.side === SIDE.buy ? market.tokens[order.outcome] : ZERO_ID;
      ctx.capture.log(
        {
          kind: KIND.feeChargedV1,
          logIndex: 0,
          txIndex: 0,
          tx: '',
          exchange: code,
          receiver,
          tokenId,
          amount: order.fee,
        },
        exchange,
      );
    }
  }
}

function logFill(
  ctx: DemoContext,
  market: DemoMarket,
  order: BookOrder,
  takerField: string,
  exchange: string,
  code: ExchangeCode,
  route: MatchRoute,
): void {
  const address = ctx.wallets[order.wallet]!.address;
  const buy = order.side === SIDE.buy;
  const makerAmount = buy ? order.usdc : order.shares;
  const takerAmount = buy ? order.shares : order.usdc;
  if (route.v2) {
    ctx.capture.log(
      {
        kind: KIND.orderFilledV2,
        logIndex: 0,
        txIndex: 0,
        tx: '',
        exchange: code,
        orderHash: order.hash,
        maker: address,
        taker: takerField,
        side: order.side,
        tokenId: market.tokens[order.outcome],
        makerAmount,
        takerAmount,
        fee: order.fee,
        builder: route.builder,
        metadata: ZERO_BYTES32,
      },
      exchange,
    );
  } else {
    const token = market.tokens[order.outcome];
    ctx.capture.log(
      {
        kind: KIND.orderFilledV1,
        logIndex: 0,
        txIndex: 0,
        tx: '',
        exchange: code,
        orderHash: order.hash,
        maker: address,
        taker: takerField,
        makerAssetId: buy ? ZERO_ID : token,
        takerAssetId: buy ? token : ZERO_ID,
        makerAmount,
        takerAmount,
        fee: order.fee,
      },
      exchange,
    );
  }
}

/**
 * Emits one matchOrders transaction and applies it to the holdings. The caller sized the orders consistently:
 * the taker's shares are the sum of the makers', and its USDC the sum of what each maker leg leaves it.
 */
export function emitMatch(
  ctx: DemoContext,
  market: DemoMarket,
  taker: BookOrder,
  makers: BookOrder[],
  route: MatchRoute,
): void {
  const [exchange, code] = exchangeOf(ctx, market, route.v2);
  const operator = !route.v2 && market.negRisk ? ctx.addresses.negRiskAdapter : exchange;
  const receiver = route.v2 ? DEMO_FEE_RECEIVER_V2 : (route.module ?? DEMO_FEE_RECEIVER);
  computeFees(market, taker, makers, route);
  const takerAddress = ctx.wallets[taker.wallet]!.address;
  const capture = ctx.capture;
  capture.beginTx();
  if (taker.side === SIDE.sell)
    logTransferSingle(ctx, operator, takerAddress, exchange, market.tokens[taker.outcome], taker.shares);
  else capture.skipLogs(1);
  for (const maker of makers) {
    const makerAddress = ctx.wallets[maker.wallet]!.address;
    if (maker.side === SIDE.sell)
      logTransferSingle(ctx, operator, makerAddress, exchange, market.tokens[maker.outcome], maker.shares);
    else capture.skipLogs(1);
    if (maker.match === MATCH.mint) exchangeSplit(ctx, market, exchange, maker.shares);
    else if (maker.match === MATCH.merge) exchangeMerge(ctx, market, exchange, maker.shares);
    payOut(ctx, maker, market, operator, exchange, code, receiver, route.v2);
    logFill(ctx, market, maker, takerAddress, exchange, code, route);
  }
  payOut(ctx, taker, market, operator, exchange, code, receiver, route.v2);
  logFill(ctx, market, taker, exchange, exchange, code, route);
  if (route.v2) {
    capture.log(
      {
        kind: KIND.ordersMatchedV2,
        logIndex: 0,
        txIndex: 0,
        tx: '',
        exchange: code,
        takerOrderHash: taker.hash,
        takerOrderMaker: takerAddress,
        side: taker.side,
        tokenId: market.tokens[taker.outcome],
        makerAmount: taker.side === SIDE.buy ? taker.usdc : taker.shares,
        takerAmount: taker.side === SIDE.buy ? taker.shares : taker.usdc,
      },
      exchange,
    );
  } else {
    const token = market.tokens[taker.outcome];
    const buy = taker.side === SIDE.buy;
    capture.log(
      {
        kind: KIND.ordersMatchedV1,
        logIndex: 0,
        txIndex: 0,
        tx: '',
        exchange: code,
        takerOrderHash: taker.hash,
        takerOrderMaker: takerAddress,
        makerAssetId: buy ? ZERO_ID : token,
        takerAssetId: buy ? token : ZERO_ID,
        makerAmount: buy ? taker.usdc : taker.shares,
        takerAmount: buy ? taker.shares : taker.usdc,
      },
      exchange,
    );
  }
  if (route.module !== null) {
    refund(ctx, market, taker, route.module);
    for (const maker of makers) refund(ctx, market, maker, route.module);
    ctx.counters.feeModuleMatches++;
  }
  settle(ctx, market, taker, route.v2, false);
  for (const maker of makers) {
    settle(ctx, market, maker, route.v2, true);
    ctx.counters.matchTypes[
      maker.match === MATCH.complementary ? 'complementary' : maker.match === MATCH.mint ? 'mint' : 'merge'
    ]++;
  }
  ctx.fills += makers.length + 1;
  ctx.counters.matches++;
}

/** The fee module returns the fee above what its operator keeps: shares by ERC-1155, USDC unseen; FeeRefunded. */
function refund(ctx: DemoContext, market: DemoMarket, order: BookOrder, module: string): void {
  const amount = order.fee - order.kept;
  if (amount <= 0) return;
  const address = ctx.wallets[order.wallet]!.address;
  const buy = order.side === SIDE.buy;
  const tokenId = buy ? market.tokens[order.outcome] : ZERO_ID;
  if (buy) logTransferSingle(ctx, module, module, address, tokenId, amount);
  else ctx.capture.skipLogs(1);
  ctx.capture.log(
    {
      kind: KIND.feeRefunded,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      module,
      orderHash: order.hash,
      to: address,
      tokenId,
      refund: amount,
      feeCharged: order.kept,
    },
    module,
  );
}

/** The order's effect on its owner's holdings, and the wallet's fill counters. */
function settle(ctx: DemoContext, market: DemoMarket, order: BookOrder, v2: boolean, maker: boolean): void {
  // A V1 buy gets its shares less the fee, plus whatever the fee module refunds: shares - kept (kept = fee
  // without a module). A V2 fee is collateral.
  if (order.side === SIDE.buy)
    addBalance(market, order.wallet, order.outcome, v2 ? order.shares : order.shares - order.kept);
  else addBalance(market, order.wallet, order.outcome, -order.shares);
  const wallet = ctx.wallets[order.wallet]!;
  wallet.fills++;
  if (maker) wallet.makerFills++;
}
