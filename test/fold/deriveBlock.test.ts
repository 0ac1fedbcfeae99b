// The derive step: chain events -> position events and trade rows, against hand-worked expectations; plumbing
// (exchange MINT/MERGE splits and merges, adapter splits by the exchange, transfers by venue contracts) must
// produce nothing.
import t from 'tap';
import { EXCHANGE, KIND, type ChainEvent } from '../../engine/chain/chainEvent.js';
import { outcomeTokenIds } from '../../engine/chain/positionIds.js';
import { POLYGON_ADDRESSES as A, ZERO_ADDRESS } from '../../engine/chain/venueAddresses.js';
import type { DeriveContext } from '../../engine/fold/deriveContext.js';
import type { MarketRegistry } from '../../engine/state/marketRegistry.js';
import { deriveBlock } from '../../engine/fold/deriveBlock.js';
import { POSITION_EVENT, type PositionEvent } from '../../engine/reducers/positionEvent.js';
import type { MarketRecord, NegRiskEventRecord, PoolRecord, TokenRecord } from '../../engine/state/marketRecords.js';
import type { TradeRow } from '../../engine/state/tradeRow.js';

const COND = '0x' + 'c1'.repeat(32);
const [YES, NO] = outcomeTokenIds(COND, A.usdc);
const ALICE = '0x' + 'a1'.repeat(20);
const BOB = '0x' + 'b2'.repeat(20);
const CAROL = '0x' + 'c3'.repeat(20);
const TX = '0x' + '77'.repeat(32);
const ZERO_ID = '0'.repeat(64);

function createHarness() {
  const markets = new Map<string, MarketRecord>();
  const tokens = new Map<string, TokenRecord>();
  const negRisk = new Map<string, NegRiskEventRecord>();
  const pools = new Map<string, PoolRecord>();
  const registry: MarketRegistry = {
    market: (id) => markets.get(id),
    putMarket: (r) => void markets.set(r.conditionId, r),
    putMarks: (r) => void markets.set(r.conditionId, r),
    token: (id) => tokens.get(id),
    putToken: (id, r) => void tokens.set(id, r),
    negRiskEvent: (id) => negRisk.get(id),
    putNegRiskEvent: (r) => void negRisk.set(r.marketId, r),
    pool: (id) => pools.get(id),
    putPool: (r) => void pools.set(r.pool, r),
    putFeedAnswer: () => {},
    putRoundReport: () => {},
    countUnknownTopic: () => {},
  };
  const events: PositionEvent[] = [];
  const trades: Array<{ market: string; row: TradeRow }> = [];
  const skips: string[] = [];
  let slot = 0;
  const venue = new Set([
    A.ctf,
    A.ctfExchange,
    A.negRiskExchange,
    A.ctfExchangeV2,
    A.negRiskExchangeV2,
    A.negRiskAdapter,
    A.feeModule,
  ]);
  const ctx: DeriveContext = {
    addresses: A,
    registry,
    isVenueContract: (a) => venue.has(a),
    addVenueContract: (a) => void venue.add(a),
    sink: {
      positionEvent: (e) => void events.push(e),
      trade: (market, row) => void trades.push({ market, row }),
      skip: (r) => void skips.push(r),
      nextSlot: () => slot++,
    },
  };
  let logIndex = 0;
  const run = (list: Array<Record<string, unknown>>) =>
    deriveBlock(ctx, {
      block: 100,
      ts: 1_700_000_000,
      hash: '0x' + '00'.repeat(32),
      events: list.map((e) => ({ logIndex: logIndex++, txIndex: 0, tx: TX, ...e }) as unknown as ChainEvent),
    });
  run([
    {
      kind: KIND.conditionPreparation,
      conditionId: COND,
      oracle: '0x' + '65'.repeat(20),
      questionId: '0x' + '01'.repeat(32),
      outcomeSlotCount: 2,
    },
  ]);
  return { ctx, run, events, trades, skips, markets, negRisk };
}

const filled = (o: Record<string, unknown>) => ({
  kind: KIND.orderFilledV1,
  exchange: EXCHANGE.ctf,
  orderHash: '0x' + 'f0'.repeat(32),
  fee: 0,
  ...o,
});

t.test('default: a V1 match -> one row per order, roles, counterparties, fees', async (t) => {
  const h = createHarness();
  h.run([
    // Maker Bob sells 10 YES for $6; maker Carol sells 5 YES for $3.05; taker Alice buys 15 YES for $9.05, fee 0.3
    // share.
    filled({
      orderHash: '0x' + '01'.repeat(32),
      maker: BOB,
      taker: ALICE,
      makerAssetId: YES,
      takerAssetId: ZERO_ID,
      makerAmount: 10_000_000,
      takerAmount: 6_000_000,
      fee: 60_000,
    }),
    filled({
      orderHash: '0x' + '02'.repeat(32),
      maker: CAROL,
      taker: ALICE,
      makerAssetId: YES,
      takerAssetId: ZERO_ID,
      makerAmount: 5_000_000,
      takerAmount: 3_050_000,
    }),
    filled({
      orderHash: '0x' + '03'.repeat(32),
      maker: ALICE,
      taker: A.ctfExchange,
      makerAssetId: ZERO_ID,
      takerAssetId: YES,
      makerAmount: 9_050_000,
      takerAmount: 15_000_000,
      fee: 300_000,
    }),
    {
      kind: KIND.ordersMatchedV1,
      exchange: EXCHANGE.ctf,
      takerOrderHash: '0x' + '03'.repeat(32),
      takerOrderMaker: ALICE,
      makerAssetId: ZERO_ID,
      takerAssetId: YES,
      makerAmount: 9_050_000,
      takerAmount: 15_000_000,
    },
  ]);
  t.same(
    h.trades.map(({ market, row }) => [
      market,
      row.wallet,
      row.side,
      row.role,
      row.counterparty,
      row.shares,
      row.usd,
      row.fee,
      row.feeUnit,
      row.outcomeIndex,
    ]),
    [
      [COND, BOB, 1, 1, ALICE, 10_000_000, 6_000_000, 60_000, 0, 0],
      [COND, CAROL, 1, 1, ALICE, 5_000_000, 3_050_000, 0, 0, 0],
      [COND, ALICE, 0, 0, BOB, 15_000_000, 9_050_000, 300_000, 1, 0],
    ],
  );
  t.same(
    h.events.map((e) => [
      e.kind,
      e.wallet,
      'shares' in e ? e.shares : 0,
      'feeShares' in e ? e.feeShares : 0,
      'feeUsd' in e ? e.feeUsd : 0,
    ]),
    [
      [POSITION_EVENT.bookSell, BOB, 10_000_000, 0, 60_000],
      [POSITION_EVENT.bookSell, CAROL, 5_000_000, 0, 0],
      [POSITION_EVENT.bookBuy, ALICE, 15_000_000, 300_000, 0],
    ],
  );
  const market = h.markets.get(COND)!;
  t.same(market.marks[0], { usd: 9_050_000, shares: 15_000_000, ts: 1_700_000_000 }, 'mark = last fill of the token');
  t.equal(market.fills, 3);
});

t.test('behavior: a fee module refund lowers the fill fee in its own unit', async (t) => {
  const h = createHarness();
  h.run([
    filled({
      orderHash: '0x' + '0a'.repeat(32),
      maker: ALICE,
      taker: A.ctfExchange,
      makerAssetId: ZERO_ID,
      takerAssetId: NO,
      makerAmount: 4_000_000,
      takerAmount: 10_000_000,
      fee: 500_000,
    }),
    {
      kind: KIND.feeRefunded,
      module: A.feeModule,
      orderHash: '0x' + '0a'.repeat(32),
      to: ALICE,
      tokenId: NO,
      refund: 300_000,
      feeCharged: 200_000,
    },
    {
      kind: KIND.feeRefunded,
      module: A.feeModule,
      orderHash: '0x' + 'ee'.repeat(32),
      to: BOB,
      tokenId: NO,
      refund: 1,
      feeCharged: 0,
    },
  ]);
  t.equal(h.trades[0]!.row.fee, 200_000);
  t.equal((h.events[0] as { feeShares: number }).feeShares, 200_000);
  t.same(h.skips, ['unmatchedRefund'], 'a refund with no fill in its transaction is counted, not applied');
});

t.test('behavior: exchange MINT/MERGE and adapter plumbing produce nothing', async (t) => {
  const h = createHarness();
  h.run([
    {
      kind: KIND.ctfSplit,
      stakeholder: A.ctfExchange,
      collateral: A.usdc,
      parentCollectionId: '0x' + '00'.repeat(32),
      conditionId: COND,
      partition: [1, 2],
      amount: 5_000_000,
    },
    {
      kind: KIND.ctfMerge,
      stakeholder: A.ctfExchange,
      collateral: A.usdc,
      parentCollectionId: '0x' + '00'.repeat(32),
      conditionId: COND,
      partition: [1, 2],
      amount: 5_000_000,
    },
    { kind: KIND.adapterSplit, stakeholder: A.negRiskExchange, conditionId: COND, amount: 5_000_000 },
    {
      kind: KIND.ctfSplit,
      stakeholder: A.negRiskAdapter,
      collateral: A.wrappedCollateral,
      parentCollectionId: '0x' + '00'.repeat(32),
      conditionId: COND,
      partition: [1, 2],
      amount: 5_000_000,
    },
    { kind: KIND.transferSingle, operator: A.ctfExchange, from: BOB, to: A.ctfExchange, tokenId: YES, value: 1 },
    { kind: KIND.transferSingle, operator: BOB, from: ZERO_ADDRESS, to: BOB, tokenId: YES, value: 1 },
    {
      kind: KIND.transferBatch,
      operator: A.negRiskAdapter,
      from: A.negRiskAdapter,
      to: ALICE,
      tokenIds: [YES, NO],
      values: [1, 1],
    },
    {
      kind: KIND.ctfRedemption,
      redeemer: A.negRiskAdapter,
      collateral: A.wrappedCollateral,
      parentCollectionId: '0x' + '00'.repeat(32),
      conditionId: COND,
      indexSets: [1, 2],
      payout: 0,
    },
  ]);
  t.same(h.events, []);
  t.equal(h.skips.filter((s) => s === 'plumbing').length, 8);
});

t.test('behavior: wallet actions become position events', async (t) => {
  const h = createHarness();
  h.run([
    {
      kind: KIND.ctfSplit,
      stakeholder: ALICE,
      collateral: A.usdc,
      parentCollectionId: '0x' + '00'.repeat(32),
      conditionId: COND,
      partition: [1, 2],
      amount: 5_000_000,
    },
    { kind: KIND.transferSingle, operator: ALICE, from: ALICE, to: BOB, tokenId: YES, value: 2_000_000 },
    {
      kind: KIND.conditionResolution,
      conditionId: COND,
      oracle: '0x' + '65'.repeat(20),
      questionId: '0x' + '01'.repeat(32),
      outcomeSlotCount: 2,
      payoutNumerators: [1, 0],
    },
    {
      kind: KIND.ctfRedemption,
      redeemer: BOB,
      collateral: A.usdc,
      parentCollectionId: '0x' + '00'.repeat(32),
      conditionId: COND,
      indexSets: [1, 2],
      payout: 2_000_000,
    },
  ]);
  t.same(
    h.events.map((e) => [e.kind, e.wallet]),
    [
      [POSITION_EVENT.split, ALICE],
      [POSITION_EVENT.transferOut, ALICE],
      [POSITION_EVENT.transferIn, BOB],
      [POSITION_EVENT.redemption, BOB],
    ],
  );
  const redemption = h.events[3] as { tokens: string[]; numerators: number[]; denominator: number; amounts: null };
  t.same(
    [redemption.tokens, redemption.numerators, redemption.denominator, redemption.amounts],
    [[YES, NO], [1, 0], 1, null],
  );
  t.equal(
    (h.events[1] as { slot: number }).slot,
    (h.events[2] as { slot: number }).slot,
    'both ends share one basis slot',
  );
  t.equal(h.markets.get(COND)!.resolvedAt, 1_700_000_000);
});

t.test('behavior: neg-risk conversion legs come from the prepared questions', async (t) => {
  const h = createHarness();
  const marketId = '0x' + 'ab'.repeat(31) + '00';
  const questions = [0, 1, 2].map((i) => marketId.slice(0, 64) + i.toString(16).padStart(2, '0'));
  h.run([
    { kind: KIND.marketPrepared, marketId, oracle: '0x' + '71'.repeat(20), feeBips: 100, data: '0x' },
    ...questions.map((questionId, index) => ({ kind: KIND.questionPrepared, marketId, questionId, index, data: '0x' })),
    {
      kind: KIND.positionsConverted,
      stakeholder: ALICE,
      marketId,
      indexSet: (5).toString(16).padStart(64, '0'),
      amount: 3_000_000,
    },
  ]);
  const conversion = h.events[0] as { noTokens: string[]; yesTokens: string[]; feeBips: number };
  const legs = h.negRisk.get(marketId)!.questions.map((c) => outcomeTokenIds(c, A.wrappedCollateral));
  t.same(conversion.noTokens, [legs[0]![1], legs[2]![1]], 'questions 0 and 2 (bits of indexSet 5) are the NO legs');
  t.same(conversion.yesTokens, [legs[1]![0]]);
  t.equal(conversion.feeBips, 100);
});

t.test('behavior: AMM funding at the pool price; unknown pools skipped', async (t) => {
  const h = createHarness();
  const pool = '0x' + 'f1'.repeat(20);
  h.run([
    { kind: KIND.fpmmFundingAdded, pool, funder: ALICE, amountsAdded: [100_000_000, 60_000_000], sharesMinted: 1 },
    {
      kind: KIND.fpmmCreation,
      creator: ALICE,
      pool,
      conditionalTokens: A.ctf,
      collateral: A.usdc,
      conditionIds: [COND],
      fee: '0'.repeat(64),
    },
    { kind: KIND.fpmmFundingAdded, pool, funder: ALICE, amountsAdded: [100_000_000, 60_000_000], sharesMinted: 1 },
    {
      kind: KIND.fpmmBuy,
      pool,
      buyer: BOB,
      investmentAmount: 10_000_000,
      feeAmount: 200_000,
      outcomeIndex: 1,
      outcomeTokensBought: 18_000_000,
    },
  ]);
  t.same(h.skips, ['unknownPool']);
  // Outcome 1 got less (60) so 40 of it comes back, at price 100/160: cost 25.
  t.same(
    h.events.map((e) => [e.kind, 'token' in e ? e.token : '', 'shares' in e ? e.shares : 0, 'cost' in e ? e.cost : 0]),
    [
      [POSITION_EVENT.ammReceive, NO, 40_000_000, 25_000_000],
      [POSITION_EVENT.ammBuy, NO, 18_000_000, 0],
    ],
  );
  t.same(
    [h.trades[0]!.row.exchange, h.trades[0]!.row.usd, h.trades[0]!.row.fee, h.trades[0]!.row.counterparty],
    [EXCHANGE.amm, 9_800_000, 200_000, pool],
  );
});
