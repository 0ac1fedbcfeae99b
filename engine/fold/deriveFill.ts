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
  const takerRow = isExchange(ctx, fill.taker);
  const counterparty = takerRow ? (tx.makers[0] ?? ZERO_WALLET) : fill.taker;
  if (takerRow) tx.makers.length = 0;
  else tx.makers.push(fill.maker);

  const token = ctx.registry.token(fill.token);
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
    const market = ctx.registry.market(token.conditionId)!;
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
