// Reducer rules of docs/design.md 3, each with figures worked by hand in micro-units.
import t from 'tap';
import { mulDivRound } from '../../engine/reducers/mulDivRound.js';
import { splitEvenly } from '../../engine/reducers/splitEvenly.js';
import { createPosition, FLAG, type Position } from '../../engine/reducers/position.js';
import { foldPositionEvent, type BasisChannel, type PositionBook } from '../../engine/reducers/foldPositionEvent.js';
import { POSITION_EVENT, type PositionEvent } from '../../engine/reducers/positionEvent.js';

const A = '0x' + 'a'.repeat(40);
const B = '0x' + 'b'.repeat(40);
const T0 = '1'.repeat(64);
const T1 = '2'.repeat(64);
const T2 = '3'.repeat(64);
const T3 = '4'.repeat(64);

function createBook(): PositionBook & { get(wallet: string, token: string): Position | undefined } {
  const positions = new Map<string, Position>();
  return {
    position(wallet, token) {
      let p = positions.get(wallet + token);
      if (!p) positions.set(wallet + token, (p = createPosition()));
      return p;
    },
    // Mirrors persistence: a position no event touched is never stored.
    get: (wallet, token) => {
      const p = positions.get(wallet + token);
      return p && p.firstTradeAt !== 0 ? p : undefined;
    },
  };
}
function createChannel(): BasisChannel {
  const slots = new Map<number, number>();
  return { publish: (slot, basis) => void slots.set(slot, basis), receive: (slot) => slots.get(slot)! };
}
const at = { ts: 1_700_000_000, block: 1, logIndex: 0 };
function fold(events: Array<Record<string, unknown>>) {
  const book = createBook();
  const channel = createChannel();
  for (const e of events) foldPositionEvent(book, { ...at, wallet: A, ...e } as PositionEvent, channel);
  return book;
}
function pick(p: Position | undefined, keys: Array<keyof Position>) {
  return Object.fromEntries(keys.map((k) => [k, p?.[k]]));
}

t.test('mulDivRound', async (t) => {
  t.equal(mulDivRound(5, 1, 2), 3, 'half rounds away from zero');
  t.equal(mulDivRound(-5, 1, 2), -3, 'negative half rounds away from zero');
  t.equal(mulDivRound(1_000_000, 1_000_000, 3_000_000), 333_333);
  t.equal(mulDivRound(2_000_000, 1_000_000, 3_000_000), 666_667);
  t.equal(
    mulDivRound(123_456_789_012, 987_654_321_098, 333_333_333_333),
    365_797_893_410,
    'product above 2^53 is exact',
  );
  t.throws(() => mulDivRound(1, 1, 0));
});

t.test('splitEvenly', async (t) => {
  t.same(splitEvenly(10, 3), [4, 3, 3], 'remainder to the first leg');
  t.same(splitEvenly(-7, 2), [-3, -4], 'negative amounts still sum exactly');
  t.same(splitEvenly(0, 2), [0, 0]);
});

t.test('behavior: V1 buy with a share fee', async (t) => {
  // 100 shares for $60, fee 2 shares: 98 arrive, basis $60, fee valued at the fill price 0.60 = $1.20.
  const book = fold([
    { kind: POSITION_EVENT.bookBuy, token: T0, shares: 100_000_000, usd: 60_000_000, feeShares: 2_000_000, feeUsd: 0 },
  ]);
  t.same(pick(book.get(A, T0), ['shares', 'costBasis', 'boughtShares', 'boughtUsd', 'fees', 'fills', 'realizedPnl']), {
    shares: 98_000_000,
    costBasis: 60_000_000,
    boughtShares: 100_000_000,
    boughtUsd: 60_000_000,
    fees: 1_200_000,
    fills: 1,
    realizedPnl: 0,
  });
});

t.test('behavior: V1 sell with a USDC fee', async (t) => {
  // Hold 98 at $60; sell 49 for $35 with a $0.50 fee: basis out 60*49/98 = $30, realized 35 - 0.5 - 30 = $4.50.
  const book = fold([
    { kind: POSITION_EVENT.bookBuy, token: T0, shares: 100_000_000, usd: 60_000_000, feeShares: 2_000_000, feeUsd: 0 },
    { kind: POSITION_EVENT.bookSell, token: T0, shares: 49_000_000, usd: 35_000_000, feeUsd: 500_000 },
  ]);
  t.same(
    pick(book.get(A, T0), ['shares', 'costBasis', 'realizedPnl', 'soldShares', 'soldUsd', 'fees', 'fills', 'flags']),
    {
      shares: 49_000_000,
      costBasis: 30_000_000,
      realizedPnl: 4_500_000,
      soldShares: 49_000_000,
      soldUsd: 35_000_000,
      fees: 1_700_000,
      fills: 2,
      flags: 0,
    },
  );
});

t.test('behavior: sell basis is cost*n/shares rounded once', async (t) => {
  // 3 shares cost $1.000001; selling 1 removes 1000001/3 = 333333.67 -> 333334, not round(avg)*1.
  const book = fold([
    { kind: POSITION_EVENT.bookBuy, token: T0, shares: 3_000_000, usd: 1_000_001, feeShares: 0, feeUsd: 0 },
    { kind: POSITION_EVENT.bookSell, token: T0, shares: 1_000_000, usd: 500_000, feeUsd: 0 },
  ]);
  t.same(pick(book.get(A, T0), ['shares', 'costBasis', 'realizedPnl']), {
    shares: 2_000_000,
    costBasis: 666_667,
    realizedPnl: 166_666,
  });
});

t.test('behavior: V2 fill, fee in collateral', async (t) => {
  // Real V2 row shape: 10 shares for $8.00, fee $0.1152: basis $8.1152, boughtUsd $8.
  const book = fold([
    { kind: POSITION_EVENT.bookBuy, token: T0, shares: 10_000_000, usd: 8_000_000, feeShares: 0, feeUsd: 115_200 },
  ]);
  t.same(pick(book.get(A, T0), ['shares', 'costBasis', 'boughtUsd', 'fees']), {
    shares: 10_000_000,
    costBasis: 8_115_200,
    boughtUsd: 8_000_000,
    fees: 115_200,
  });
  const sold = fold([
    { kind: POSITION_EVENT.bookBuy, token: T0, shares: 10_000_000, usd: 8_000_000, feeShares: 0, feeUsd: 115_200 },
    { kind: POSITION_EVENT.bookSell, token: T0, shares: 4_000_000, usd: 3_600_000, feeUsd: 57_600 },
  ]);
  // Basis out 8115200*4/10 = 3246080; realized 3600000 - 57600 - 3246080 = 296320.
  t.same(pick(sold.get(A, T0), ['shares', 'costBasis', 'realizedPnl', 'fees']), {
    shares: 6_000_000,
    costBasis: 4_869_120,
    realizedPnl: 296_320,
    fees: 172_800,
  });
});

t.test('behavior: split then merge', async (t) => {
  // Split $10.000001: each side +10.000001 shares; basis halves 5000001 (outcome 0) and 5000000.
  const split = fold([{ kind: POSITION_EVENT.split, tokens: [T0, T1], markets: [], amount: 10_000_001 }]);
  t.same(pick(split.get(A, T0), ['shares', 'costBasis', 'splitShares']), {
    shares: 10_000_001,
    costBasis: 5_000_001,
    splitShares: 10_000_001,
  });
  t.same(pick(split.get(A, T1), ['shares', 'costBasis', 'splitShares']), {
    shares: 10_000_001,
    costBasis: 5_000_000,
    splitShares: 10_000_001,
  });
  // Merge 4.000001: outcome 0 basis out 5000001*4000001/10000001 = 2000000.6 -> 2000001, paid 2000001: realized 0;
  // outcome 1 basis out 5000000*4000001/10000001 = 2000000.3 -> 2000000, paid 2000000: realized 0.
  const merged = fold([
    { kind: POSITION_EVENT.split, tokens: [T0, T1], markets: [], amount: 10_000_001 },
    { kind: POSITION_EVENT.merge, tokens: [T0, T1], markets: [], amount: 4_000_001 },
  ]);
  t.same(pick(merged.get(A, T0), ['shares', 'costBasis', 'realizedPnl', 'mergedShares', 'mergeUsd']), {
    shares: 6_000_000,
    costBasis: 3_000_000,
    realizedPnl: 0,
    mergedShares: 4_000_001,
    mergeUsd: 2_000_001,
  });
  t.same(pick(merged.get(A, T1), ['shares', 'costBasis', 'realizedPnl', 'mergedShares', 'mergeUsd']), {
    shares: 6_000_000,
    costBasis: 3_000_000,
    realizedPnl: 0,
    mergedShares: 4_000_001,
    mergeUsd: 2_000_000,
  });
  // Merge after buying the NO side cheap: NO 10 at $2 plus YES 10 at $7; merge 10 -> realized 5-7 and 5-2.
  const cheap = fold([
    { kind: POSITION_EVENT.bookBuy, token: T0, shares: 10_000_000, usd: 7_000_000, feeShares: 0, feeUsd: 0 },
    { kind: POSITION_EVENT.bookBuy, token: T1, shares: 10_000_000, usd: 2_000_000, feeShares: 0, feeUsd: 0 },
    { kind: POSITION_EVENT.merge, tokens: [T0, T1], markets: [], amount: 10_000_000 },
  ]);
  t.equal(cheap.get(A, T0)!.realizedPnl, -2_000_000);
  t.equal(cheap.get(A, T1)!.realizedPnl, 3_000_000);
});

t.test('behavior: CTF redemption redeems the tracked balance', async (t) => {
  const book = fold([
    { kind: POSITION_EVENT.bookBuy, token: T0, shares: 10_000_000, usd: 6_000_000, feeShares: 0, feeUsd: 0 },
    { kind: POSITION_EVENT.bookBuy, token: T1, shares: 5_000_000, usd: 2_000_000, feeShares: 0, feeUsd: 0 },
    {
      kind: POSITION_EVENT.redemption,
      tokens: [T0, T1],
      numerators: [1, 0],
      denominator: 1,
      amounts: null,
      payout: 10_000_000,
    },
  ]);
  t.same(pick(book.get(A, T0), ['shares', 'costBasis', 'realizedPnl', 'redeemedShares', 'redeemUsd', 'flags']), {
    shares: 0,
    costBasis: 0,
    realizedPnl: 4_000_000,
    redeemedShares: 10_000_000,
    redeemUsd: 10_000_000,
    flags: 0,
  });
  t.same(pick(book.get(A, T1), ['shares', 'costBasis', 'realizedPnl', 'redeemedShares', 'redeemUsd']), {
    shares: 0,
    costBasis: 0,
    realizedPnl: -2_000_000,
    redeemedShares: 5_000_000,
    redeemUsd: 0,
  });
});

t.test('behavior: CTF redemption above the tracked balance books the excess with no basis', async (t) => {
  // Tracked 4 YES at $2, payout $10 at [1,0]: 6 more shares redeemed with no basis; shares go to -6.
  const book = fold([
    { kind: POSITION_EVENT.bookBuy, token: T0, shares: 4_000_000, usd: 2_000_000, feeShares: 0, feeUsd: 0 },
    {
      kind: POSITION_EVENT.redemption,
      tokens: [T0, T1],
      numerators: [1, 0],
      denominator: 1,
      amounts: null,
      payout: 10_000_000,
    },
  ]);
  const p = book.get(A, T0)!;
  t.same(pick(p, ['shares', 'costBasis', 'realizedPnl', 'redeemedShares', 'redeemUsd']), {
    shares: -6_000_000,
    costBasis: 0,
    realizedPnl: 8_000_000,
    redeemedShares: 10_000_000,
    redeemUsd: 10_000_000,
  });
  t.ok(p.flags & FLAG.partialHistory);
  t.equal(book.get(A, T1), undefined, 'an outcome neither held nor paid is not created');
  // A 50/50 resolution pays half per share: 4 held -> $2; with a $3 payout the winner (first max) takes 2 more.
  const half = fold([
    { kind: POSITION_EVENT.bookBuy, token: T0, shares: 4_000_000, usd: 2_000_000, feeShares: 0, feeUsd: 0 },
    {
      kind: POSITION_EVENT.redemption,
      tokens: [T0, T1],
      numerators: [1, 1],
      denominator: 2,
      amounts: null,
      payout: 3_000_000,
    },
  ]);
  t.same(pick(half.get(A, T0), ['shares', 'redeemedShares', 'redeemUsd', 'realizedPnl']), {
    shares: -2_000_000,
    redeemedShares: 6_000_000,
    redeemUsd: 3_000_000,
    realizedPnl: 1_000_000,
  });
});

t.test('behavior: adapter redemption uses the event amounts', async (t) => {
  // Real shape: amounts [0, 11000000], payout 11000000 on a NO win; NO held 11 at $3.
  const book = fold([
    { kind: POSITION_EVENT.bookBuy, token: T1, shares: 11_000_000, usd: 3_000_000, feeShares: 0, feeUsd: 0 },
    {
      kind: POSITION_EVENT.redemption,
      tokens: [T0, T1],
      numerators: [0, 1],
      denominator: 1,
      amounts: [0, 11_000_000],
      payout: 11_000_000,
    },
  ]);
  t.same(pick(book.get(A, T1), ['shares', 'costBasis', 'realizedPnl', 'redeemedShares', 'redeemUsd']), {
    shares: 0,
    costBasis: 0,
    realizedPnl: 8_000_000,
    redeemedShares: 11_000_000,
    redeemUsd: 11_000_000,
  });
});

t.test('behavior: a redemption event is counted once, on the first outcome it touched', async (t) => {
  const both = fold([
    { kind: POSITION_EVENT.bookBuy, token: T0, shares: 10_000_000, usd: 6_000_000, feeShares: 0, feeUsd: 0 },
    { kind: POSITION_EVENT.bookBuy, token: T1, shares: 5_000_000, usd: 2_000_000, feeShares: 0, feeUsd: 0 },
    {
      kind: POSITION_EVENT.redemption,
      tokens: [T0, T1],
      numerators: [1, 0],
      denominator: 1,
      amounts: null,
      payout: 10_000_000,
    },
  ]);
  t.same([both.get(A, T0)!.redemptions, both.get(A, T1)!.redemptions], [1, 0], 'both outcomes redeemed: one event');
  const noOnly = fold([
    { kind: POSITION_EVENT.bookBuy, token: T1, shares: 11_000_000, usd: 3_000_000, feeShares: 0, feeUsd: 0 },
    {
      kind: POSITION_EVENT.redemption,
      tokens: [T0, T1],
      numerators: [0, 1],
      denominator: 1,
      amounts: [0, 11_000_000],
      payout: 11_000_000,
    },
    {
      kind: POSITION_EVENT.redemption,
      tokens: [T0, T1],
      numerators: [0, 1],
      denominator: 1,
      amounts: [0, 0],
      payout: 0,
    },
  ]);
  t.equal(
    noOnly.get(A, T1)!.redemptions,
    1,
    'an outcome left untouched is not counted; a redemption of nothing counts nowhere',
  );
  t.equal(noOnly.get(A, T0), undefined);
});

t.test('behavior: a transfer moves basis, conserved to the micro-unit', async (t) => {
  const book = createBook();
  const channel = createChannel();
  const events = [
    { kind: POSITION_EVENT.bookBuy, wallet: A, token: T0, shares: 10_000_000, usd: 3_000_001, feeShares: 0, feeUsd: 0 },
    { kind: POSITION_EVENT.transferOut, wallet: A, token: T0, amount: 3_000_000, slot: 0 },
    { kind: POSITION_EVENT.transferIn, wallet: B, token: T0, amount: 3_000_000, slot: 0 },
  ];
  for (const e of events) foldPositionEvent(book, { ...at, ...e } as PositionEvent, channel);
  // Basis out 3000001*3/10 = 900000.3 -> 900000; the receiver gets exactly that.
  const a = book.get(A, T0)!;
  const b = book.get(B, T0)!;
  t.same(pick(a, ['shares', 'costBasis']), { shares: 7_000_000, costBasis: 2_100_001 });
  t.same(pick(b, ['shares', 'costBasis', 'receivedShares', 'receivedBasis']), {
    shares: 3_000_000,
    costBasis: 900_000,
    receivedShares: 3_000_000,
    receivedBasis: 900_000,
  });
  t.equal(a.costBasis + b.costBasis, 3_000_001, 'basis conserved');
  t.ok(a.flags & FLAG.basisApprox && b.flags & FLAG.basisApprox, 'both marked basisApprox');
});

t.test('behavior: a sale with no prior history', async (t) => {
  const book = fold([{ kind: POSITION_EVENT.bookSell, token: T0, shares: 5_000_000, usd: 2_000_000, feeUsd: 0 }]);
  const p = book.get(A, T0)!;
  t.same(pick(p, ['shares', 'costBasis', 'realizedPnl', 'soldShares']), {
    shares: -5_000_000,
    costBasis: 0,
    realizedPnl: 2_000_000,
    soldShares: 5_000_000,
  });
  t.ok(p.flags & FLAG.partialHistory);
  // Selling 8 while holding 5 at $3: the 5 take all $3 of basis, the excess 3 none.
  const over = fold([
    { kind: POSITION_EVENT.bookBuy, token: T0, shares: 5_000_000, usd: 3_000_000, feeShares: 0, feeUsd: 0 },
    { kind: POSITION_EVENT.bookSell, token: T0, shares: 8_000_000, usd: 4_000_000, feeUsd: 0 },
  ]);
  t.same(pick(over.get(A, T0), ['shares', 'costBasis', 'realizedPnl']), {
    shares: -3_000_000,
    costBasis: 0,
    realizedPnl: 1_000_000,
  });
});

t.test('behavior: neg-risk conversion with a fee', async (t) => {
  // q=4, NO legs Q0 and Q1 (10 each, basis $6 and $8), n=10, fee 1%: out 9.9; C = 1*9.9 = 9.9; F = 14;
  // YES legs Q2, Q3 share F-C = 4.1 -> 2.05 each; NO legs realize 0.
  const book = fold([
    { kind: POSITION_EVENT.bookBuy, token: T0, shares: 10_000_000, usd: 6_000_000, feeShares: 0, feeUsd: 0 },
    { kind: POSITION_EVENT.bookBuy, token: T1, shares: 10_000_000, usd: 8_000_000, feeShares: 0, feeUsd: 0 },
    { kind: POSITION_EVENT.conversion, noTokens: [T0, T1], yesTokens: [T2, T3], amount: 10_000_000, feeBips: 100 },
  ]);
  for (const token of [T0, T1]) {
    const p = book.get(A, token)!;
    t.same(pick(p, ['shares', 'costBasis', 'realizedPnl']), { shares: 0, costBasis: 0, realizedPnl: 0 });
    t.equal(p.flags & (FLAG.converted | FLAG.basisApprox), FLAG.converted | FLAG.basisApprox);
  }
  for (const token of [T2, T3]) {
    t.same(pick(book.get(A, token), ['shares', 'costBasis', 'receivedShares', 'receivedBasis']), {
      shares: 9_900_000,
      costBasis: 2_050_000,
      receivedShares: 9_900_000,
      receivedBasis: 2_050_000,
    });
  }
});

t.test('behavior: neg-risk conversion releasing cash above the freed basis', async (t) => {
  // q=3, NO legs Q0, Q1 (10 each at $2 and $2.999999), n=10, no fee: C = 10, F = 4.999999;
  // NO legs realize C-F = 5.000001 split 2.500001 / 2.5; YES leg Q2 gets 10 shares at basis 0.
  const book = fold([
    { kind: POSITION_EVENT.bookBuy, token: T0, shares: 10_000_000, usd: 2_000_000, feeShares: 0, feeUsd: 0 },
    { kind: POSITION_EVENT.bookBuy, token: T1, shares: 10_000_000, usd: 2_999_999, feeShares: 0, feeUsd: 0 },
    { kind: POSITION_EVENT.conversion, noTokens: [T0, T1], yesTokens: [T2], amount: 10_000_000, feeBips: 0 },
  ]);
  t.equal(book.get(A, T0)!.realizedPnl, 2_500_001, 'remainder to the lowest question index');
  t.equal(book.get(A, T1)!.realizedPnl, 2_500_000);
  t.same(pick(book.get(A, T2), ['shares', 'costBasis']), { shares: 10_000_000, costBasis: 0 });
});

t.test('behavior: conversion of every question realizes the uncovered basis', async (t) => {
  // q=2 and both NO legs converted: C = 10 but no YES legs; F = 12 -> realized C-F = -2 over the two legs.
  const book = fold([
    { kind: POSITION_EVENT.bookBuy, token: T0, shares: 10_000_000, usd: 7_000_000, feeShares: 0, feeUsd: 0 },
    { kind: POSITION_EVENT.bookBuy, token: T1, shares: 10_000_000, usd: 5_000_000, feeShares: 0, feeUsd: 0 },
    { kind: POSITION_EVENT.conversion, noTokens: [T0, T1], yesTokens: [], amount: 10_000_000, feeBips: 0 },
  ]);
  t.equal(book.get(A, T0)!.realizedPnl + book.get(A, T1)!.realizedPnl, -2_000_000);
});

t.test('behavior: AMM buy, sell and funding', async (t) => {
  // Buy: $10 invested incl. a $0.20 fee for 18 shares; sell 9 for a $6 return with a $0.12 fee on top.
  const book = fold([
    { kind: POSITION_EVENT.ammBuy, token: T0, investment: 10_000_000, fee: 200_000, shares: 18_000_000 },
    { kind: POSITION_EVENT.ammSell, token: T0, proceeds: 6_000_000, fee: 120_000, shares: 9_000_000 },
  ]);
  const p = book.get(A, T0)!;
  t.same(
    pick(p, [
      'shares',
      'costBasis',
      'realizedPnl',
      'boughtShares',
      'boughtUsd',
      'soldShares',
      'soldUsd',
      'fees',
      'fills',
    ]),
    {
      shares: 9_000_000,
      costBasis: 5_000_000,
      realizedPnl: 1_000_000,
      boughtShares: 18_000_000,
      boughtUsd: 9_800_000,
      soldShares: 9_000_000,
      soldUsd: 6_120_000,
      fees: 320_000,
      fills: 0,
    },
  );
  t.ok(p.flags & FLAG.amm);
  const funded = fold([{ kind: POSITION_EVENT.ammReceive, token: T1, shares: 40_000_000, cost: 25_000_000 }]);
  const f = funded.get(A, T1)!;
  t.same(pick(f, ['shares', 'costBasis', 'receivedShares', 'receivedBasis']), {
    shares: 40_000_000,
    costBasis: 25_000_000,
    receivedShares: 40_000_000,
    receivedBasis: 25_000_000,
  });
  t.equal(f.flags & (FLAG.amm | FLAG.basisApprox), FLAG.amm | FLAG.basisApprox);
});

t.test('behavior: first/last event times and the below-0.1 marker', async (t) => {
  const book = createBook();
  const channel = createChannel();
  const seq: Array<[number, Record<string, unknown>]> = [
    [100, { kind: POSITION_EVENT.bookBuy, token: T0, shares: 1_000_000, usd: 500_000, feeShares: 0, feeUsd: 0 }],
    [200, { kind: POSITION_EVENT.bookSell, token: T0, shares: 950_000, usd: 600_000, feeUsd: 0 }],
    [300, { kind: POSITION_EVENT.bookSell, token: T0, shares: 10_000, usd: 6_000, feeUsd: 0 }],
  ];
  const marks: number[] = [];
  for (const [ts, e] of seq) {
    foldPositionEvent(book, { ...at, ts, wallet: A, ...e } as PositionEvent, channel);
    marks.push(book.get(A, T0)!.lowSinceTs);
  }
  t.same(marks, [0, 200, 200], 'marks the first event below 0.1 share and keeps it');
  t.same(pick(book.get(A, T0), ['firstTradeAt', 'lastTradeAt']), { firstTradeAt: 100, lastTradeAt: 300 });
});

t.test('default: the worked example of docs/design.md 3', async (t) => {
  const buy = (shares: number, usd: number) => ({
    kind: POSITION_EVENT.bookBuy,
    token: T0,
    shares,
    usd,
    feeShares: 0,
    feeUsd: 0,
  });
  const sell = (shares: number, usd: number) => ({ kind: POSITION_EVENT.bookSell, token: T0, shares, usd, feeUsd: 0 });
  const half = fold([buy(3_000_000, 1_000_000), buy(1_000_000, 700_000), sell(1_500_000, 900_000)]);
  t.same(pick(half.get(A, T0), ['shares', 'costBasis', 'realizedPnl']), {
    shares: 2_500_000,
    costBasis: 1_062_500,
    realizedPnl: 262_500,
  });
  const all = fold([
    buy(3_000_000, 1_000_000),
    buy(1_000_000, 700_000),
    sell(1_500_000, 900_000),
    sell(1_000_000, 500_000),
  ]);
  t.same(pick(all.get(A, T0), ['shares', 'costBasis', 'realizedPnl']), {
    shares: 1_500_000,
    costBasis: 637_500,
    realizedPnl: 337_500,
  });
});

t.test(
  'behavior: a split through the neg-risk adapter marks both legs basisApprox, a CTF split does not',
  async (t) => {
    const ctf = fold([
      { kind: POSITION_EVENT.split, tokens: [T0, T1], markets: [], amount: 4_000_000, viaAdapter: false },
    ]);
    t.equal((ctf.get(A, T0)!.flags & FLAG.basisApprox) !== 0, false);
    const adapter = fold([
      { kind: POSITION_EVENT.split, tokens: [T0, T1], markets: [], amount: 4_000_000, viaAdapter: true },
    ]);
    for (const token of [T0, T1]) {
      t.equal((adapter.get(A, token)!.flags & FLAG.basisApprox) !== 0, true, 'spec 2.2: neg-risk splits');
      t.same(
        pick(adapter.get(A, token), ['shares', 'costBasis']),
        { shares: 4_000_000, costBasis: 2_000_000 },
        'the same $1 a set',
      );
    }
  },
);
