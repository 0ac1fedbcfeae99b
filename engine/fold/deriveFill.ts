// Order-book fills (docs/design.md 2): one trade row and one position event per OrderFilled, owned by the
// order's maker. The taker order's fill names the exchange as taker; its counterparty is the first maker of
// the match, a maker fill's is the taker order's owner. Side: the order gives collateral (asset 0) -> BUY.
// V1 fees are in what the order receives (shares on a buy), V2 and V3 fees in collateral.
import { EXCHANGE, type FeeRefunded, type OrderFilledV1, type OrderFilledV2 } from '../chain/chainEvent.js';
import type { V3OrderFilled } from '../chain/v2ChainEvent.js';
import { ensureV2Position } from './registerV2Condition.js';
import { mulDivRound } from '../reducers/mulDivRound.js';
import { POSITION_EVENT, type BookBuy, type BookSell } from '../reducers/positionEvent.js';
import { FEE_UNIT, ROLE, SIDE, type TradeRow } from '../state/tradeRow.js';
import type { BlockClock, DeriveContext } from './deriveContext.js';
import type { TxContext } from './txContext.js';
import { assert } from '../assert.js';

const COLLATERAL_ASSET = '0'.repeat(64);
const ZERO_WALLET = '0x' + '0'.repeat(40);

interface Fill {
  exchange: number;
  orderHash: string;
  maker: string;
  taker: string;
  buy: boolean;
  token: string;
  shares: number;
  usd: number;
  fee: number;
  /** V1 buys pay their fee in shares. */
  feeInShares: boolean;
}

export function deriveOrderFilledV1(ctx: DeriveContext, clock: BlockClock, tx: TxContext, event: OrderFilledV1): void {
  // Decoded uint256 amounts (chainEvent.ts): decode refuses one past 2^53, so each is a non-negative safe integer.
  assert(Number.isSafeInteger(event.makerAmount) && event.makerAmount >= 0, 'a fill amount is a decoded uint');
  assert(Number.isSafeInteger(event.takerAmount) && event.takerAmount >= 0, 'a fill amount is a decoded uint');
  assert(event.exchange === EXCHANGE.ctf || event.exchange === EXCHANGE.negRisk, "a V1 fill is a V1 exchange's");
  const buy = event.makerAssetId === COLLATERAL_ASSET;
  deriveFill(ctx, clock, tx, event.logIndex, {
    exchange: event.exchange,
    orderHash: event.orderHash,
    maker: event.maker,
    taker: event.taker,
    buy,
    token: buy ? event.takerAssetId : event.makerAssetId,
    shares: buy ? event.takerAmount : event.makerAmount,
    usd: buy ? event.makerAmount : event.takerAmount,
    fee: event.fee,
    feeInShares: buy,
  });
}

/** V2 and V3 fills: the order's side says which amount is collateral; the fee is in collateral. */
function sidedFill(
  exchange: number,
  event: { orderHash: string; maker: string; taker: string; side: number; tokenId: string; fee: number },
  makerAmount: number,
  takerAmount: number,
): Fill {
  assert(Number.isSafeInteger(makerAmount) && makerAmount >= 0, 'a fill amount is a decoded uint');
  assert(Number.isSafeInteger(takerAmount) && takerAmount >= 0, 'a fill amount is a decoded uint');
  const buy = event.side === SIDE.buy;
  return {
    exchange,
    orderHash: event.orderHash,
    maker: event.maker,
    taker: event.taker,
    buy,
    token: event.tokenId,
    shares: buy ? takerAmount : makerAmount,
    usd: buy ? makerAmount : takerAmount,
    fee: event.fee,
    feeInShares: false,
  };
}

export function deriveOrderFilledV2(ctx: DeriveContext, clock: BlockClock, tx: TxContext, event: OrderFilledV2): void {
  // decodeLog codes the exchange by the contract that emitted the fill: V3 fills come through deriveOrderFilledV3.
  assert(event.exchange === EXCHANGE.ctfV2 || event.exchange === EXCHANGE.negRiskV2, "a V2 fill is a V2 exchange's");
  deriveFill(ctx, clock, tx, event.logIndex, sidedFill(event.exchange, event, event.makerAmount, event.takerAmount));
}

/**
 * ExchangeV3 (docs/design.md 10): the V2 exchange's OrderFilled shape on Protocol V2 positions and combos, fees in
 * pUSD.
 */
export function deriveOrderFilledV3(ctx: DeriveContext, clock: BlockClock, tx: TxContext, event: V3OrderFilled): void {
  if (!ensureV2Position(ctx, event.tokenId)) return ctx.sink.skip('unsupportedV2Position');
  const fill = sidedFill(EXCHANGE.v3, event, event.makerAmountFilled, event.takerAmountFilled);
  deriveFill(ctx, clock, tx, event.logIndex, fill);
}

function isExchange(ctx: DeriveContext, address: string): boolean {
  const a = ctx.addresses;
  return (
    address === a.exchangeV3 ||
    address === a.ctfExchange ||
    address === a.negRiskExchange ||
    address === a.ctfExchangeV2 ||
    address === a.negRiskExchangeV2 ||
    address === a.negRiskExchangeV2Early
  );
}

function deriveFill(ctx: DeriveContext, clock: BlockClock, tx: TxContext, logIndex: number, fill: Fill): void {
  if (fill.shares === 0) {
    ctx.sink.skip('emptyFill');
    return;
  }
  // What the reducers take: shares a positive safe integer (a decoded uint, not 0), a fee a decoded uint too.
  assert(Number.isSafeInteger(fill.shares) && fill.shares > 0, 'a fill moves a positive whole number of shares');
  assert(Number.isSafeInteger(fill.fee) && fill.fee >= 0, "a fill's fee is a decoded uint");
  // Token ids are 64 hex without 0x (chainEvent.ts): the form the registry and the state key them by.
  assert(fill.token.length === 64, "a fill's token is a token id");
  const takerRow = isExchange(ctx, fill.taker);
  const counterparty = takerRow ? (tx.makers[0] ?? ZERO_WALLET) : fill.taker;
  if (takerRow) tx.makers.length = 0;
  else tx.makers.push(fill.maker);
  // A taker row names the match's first maker, or the zero wallet when none came: never the exchange itself.
  assert(!takerRow || counterparty.length === 42, "a taker fill's counterparty is a wallet");

  const token = ctx.registry.token(fill.token);
  // deriveOrderFilledV3 registered the position's condition first (ensureV2Position), and with it both its tokens.
  assert(token !== undefined || fill.exchange !== EXCHANGE.v3, "a V3 fill's position is registered");
  // Object literals, not spreads: a spread plus properties costs microseconds per event in this V8.
  const market = token ? token.conditionId : '';
  const event: BookBuy | BookSell = fill.buy
    ? {
        kind: POSITION_EVENT.bookBuy,
        wallet: fill.maker,
        ts: clock.ts,
        block: clock.block,
        logIndex,
        market,
        token: fill.token,
        shares: fill.shares,
        usd: fill.usd,
        feeShares: fill.feeInShares ? fill.fee : 0,
        feeUsd: fill.feeInShares ? 0 : fill.fee,
      }
    : {
        kind: POSITION_EVENT.bookSell,
        wallet: fill.maker,
        ts: clock.ts,
        block: clock.block,
        logIndex,
        market,
        token: fill.token,
        shares: fill.shares,
        usd: fill.usd,
        feeUsd: fill.fee,
      };
  const row: TradeRow = {
    logIndex,
    tx: tx.tx,
    wallet: fill.maker,
    side: fill.buy ? SIDE.buy : SIDE.sell,
    token: fill.token,
    outcomeIndex: token ? token.outcomeIndex : -1,
    shares: fill.shares,
    usd: fill.usd,
    fee: fill.fee,
    feeUnit: fill.feeInShares ? FEE_UNIT.shares : FEE_UNIT.usd,
    role: takerRow ? ROLE.taker : ROLE.maker,
    counterparty,
    exchange: fill.exchange,
  };
  ctx.sink.positionEvent(event);
  ctx.sink.trade(token ? token.conditionId : fill.token, row);
  tx.fills.set(fill.orderHash, { event, row });
  if (token) {
    const market = ctx.registry.market(token.conditionId);
    // setTokens registers a condition's tokens with the condition, both outcomes of it: a token the registry knows
    // has its market, whose marks it indexes.
    assert(market !== undefined, "a token's condition is registered");
    assert(token.outcomeIndex === 0 || token.outcomeIndex === 1, 'a token is one of two outcomes');
    market.marks[token.outcomeIndex] = { usd: fill.usd, shares: fill.shares, ts: clock.ts };
    market.fills += 1;
    ctx.registry.putMarks(market);
  }
}

/**
 * A fee module's refund lowers the fee of the fill with that order hash in the same transaction (and with it the
 * buyer's basis, or raises the seller's proceeds). Both objects are still waiting for the batch to be folded,
 * so they are corrected in place. A refund in the other unit than the fee is converted at the fill price.
 */
export function deriveFeeRefunded(ctx: DeriveContext, tx: TxContext, event: FeeRefunded): void {
  const pending = tx.fills.get(event.orderHash);
  if (!pending || event.refund === 0) {
    if (!pending) ctx.sink.skip('unmatchedRefund');
    return;
  }
  const { event: fill, row } = pending;
  // enterTx empties the fills at each new transaction, and a fill's event and row are made together.
  assert(row.tx === tx.tx, "a refund's fill is of the refund's transaction");
  assert(fill.logIndex === row.logIndex && fill.token === row.token, "a pending fill's event and row are one fill");
  const refundInShares = event.tokenId !== COLLATERAL_ASSET;
  const feeInShares = row.feeUnit === FEE_UNIT.shares;
  if (refundInShares !== feeInShares && row.usd === 0) {
    ctx.sink.skip('unmatchedRefund');
    return;
  }
  const refund =
    refundInShares === feeInShares
      ? event.refund
      : refundInShares
        ? mulDivRound(event.refund, row.usd, row.shares)
        : mulDivRound(event.refund, row.shares, row.usd);
  row.fee -= refund;
  if (fill.kind === POSITION_EVENT.bookBuy && feeInShares) fill.feeShares -= refund;
  else fill.feeUsd -= refund;
}
