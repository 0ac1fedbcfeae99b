// The Protocol V2 moves of docs/design.md 10 on positions (foldRestructure), each with figures worked by hand in
// micro-units: basis leaves what is burned at its average cost and is carried to what is minted in proportion to
// amounts; a compress's cash realizes against its share; wrap, unwrap and migration carry basis exactly, and migration
// the entry history as well.
import t from 'tap';
import { foldRestructure } from '../../engine/reducers/foldRestructure.js';
import { createPosition, FLAG, type Position } from '../../engine/reducers/position.js';
import { POSITION_EVENT, type Restructure } from '../../engine/reducers/positionEvent.js';

const M = 1_000_000;
const TS = 1_790_000_000;

function held(shares: number, costBasis: number): Position {
  return { ...createPosition(), shares, costBasis, boughtShares: shares, boughtUsd: costBasis, firstTradeAt: TS - 60 };
}
function move(fields: Partial<Restructure<string>>): Restructure<string> {
  return {
    kind: POSITION_EVENT.restructure,
    wallet: 'w',
    ts: TS,
    block: 1,
    logIndex: 0,
    market: '',
    burnTokens: [],
    burnMarkets: [],
    burnAmounts: [],
    mintTokens: [],
    mintMarkets: [],
    mintAmounts: [],
    cash: 0,
    approx: true,
    migrated: false,
    ...fields,
  };
}

t.test('default: wrap then unwrap gives the position back, basis unchanged and exact', async (t) => {
  const leg = held(100 * M, 40 * M);
  const wrapped = createPosition();
  foldRestructure([leg], [wrapped], move({ burnAmounts: [100 * M], mintAmounts: [100 * M], approx: false }));
  t.match(leg, { shares: 0, costBasis: 0, realizedPnl: 0 });
  t.match(wrapped, { shares: 100 * M, costBasis: 40 * M, realizedPnl: 0, flags: 0 });
  foldRestructure([wrapped], [leg], move({ burnAmounts: [100 * M], mintAmounts: [100 * M], approx: false }));
  t.match(leg, { shares: 100 * M, costBasis: 40 * M, realizedPnl: 0, boughtShares: 100 * M, boughtUsd: 40 * M });
  t.equal(leg.flags, 0, 'no basisApprox: the basis moved exactly');
  t.equal(leg.receivedShares, 0, 'not shares in: volume and sharesIn do not change');
});

t.test('default: splitOnCondition shares the parent basis evenly, the remainder to the first child', async (t) => {
  const parent = held(10 * M, 7 * M + 1);
  const [yes, no] = [createPosition(), createPosition()];
  foldRestructure([parent], [yes, no], move({ burnAmounts: [10 * M], mintAmounts: [10 * M, 10 * M] }));
  t.match(yes, { shares: 10 * M, costBasis: 3_500_001 });
  t.match(no, { shares: 10 * M, costBasis: 3_500_000 });
  t.ok(yes.flags & FLAG.basisApprox && no.flags & FLAG.basisApprox && parent.flags & FLAG.basisApprox);
  t.equal(parent.realizedPnl, 0, 'neither a buy nor a sell');
});

t.test('default: a merge of two children carries both bases to the parent', async (t) => {
  const [yes, no] = [held(4 * M, 1 * M), held(6 * M, 4 * M)];
  const parent = createPosition();
  // 4 of each: all of yes (basis 1) and 4 of no's 6 (4 * 4/6 = 2.666667).
  foldRestructure([yes, no], [parent], move({ burnAmounts: [4 * M, 4 * M], mintAmounts: [4 * M] }));
  t.match(parent, { shares: 4 * M, costBasis: 3_666_667 });
  t.match(no, { shares: 2 * M, costBasis: 1_333_333 });
});

t.test('default: compress of a NO pays its resolved part in cash and carries the rest', async (t) => {
  // 10 NO at 6; a resolved leg at 0.4: 4 pUSD now (collateralOut) and 6 reduced NO. Cash takes 6 * 4/10 = 2.4.
  const old = held(10 * M, 6 * M);
  const reduced = createPosition();
  foldRestructure([old], [reduced], move({ burnAmounts: [10 * M], mintAmounts: [6 * M], cash: 4 * M, approx: false }));
  t.match(old, { shares: 0, costBasis: 0, realizedPnl: 1_600_000, redeemUsd: 4 * M, redeemedShares: 4 * M });
  t.equal(old.redemptions, 1);
  t.match(reduced, { shares: 6 * M, costBasis: 3_600_000, flags: 0 });
});

t.test('default: compress of a YES whose legs all resolved is cash only', async (t) => {
  const old = held(10 * M, 5 * M);
  foldRestructure([old], [], move({ burnAmounts: [10 * M], cash: 10 * M, approx: false }));
  t.match(old, { shares: 0, costBasis: 0, realizedPnl: 5 * M, redeemUsd: 10 * M, redeemedShares: 10 * M });
});

t.test('default: a CTF migration carries basis exactly and marks the V2 position migrated', async (t) => {
  const ctf = held(100 * M, 55 * M);
  const v2 = createPosition();
  foldRestructure([ctf], [v2], move({ burnAmounts: [100 * M], mintAmounts: [100 * M], approx: false, migrated: true }));
  t.match(ctf, { shares: 0, costBasis: 0, realizedPnl: 0, flags: 0 });
  t.match(v2, { shares: 100 * M, costBasis: 55 * M, flags: FLAG.migrated });
  t.match(v2, { boughtShares: 100 * M, boughtUsd: 55 * M, firstTradeAt: TS - 60, lastTradeAt: TS });
  t.match(ctf, { boughtShares: 0, boughtUsd: 0 }, 'the history went with the shares');
});

t.test('default: a partial migration carries history in proportion to the shares moved', async (t) => {
  // Held 30 shares: bought 20 for 9.000001 and split 10 (basis 5), after selling 3 of 33 bought (one fill kept).
  const ctf: Position = {
    ...createPosition(),
    shares: 30 * M,
    costBasis: 14 * M + 1,
    boughtShares: 23 * M,
    boughtUsd: 10_350_001,
    soldShares: 3 * M,
    soldUsd: 2 * M,
    splitShares: 10 * M,
    receivedShares: 7,
    receivedBasis: 3,
    fills: 3,
    fees: 40_000,
    realizedPnl: 650_000,
    firstTradeAt: TS - 600,
  };
  const v2 = createPosition();
  foldRestructure([ctf], [v2], move({ burnAmounts: [10 * M], mintAmounts: [10 * M], approx: false, migrated: true }));
  // A third of each, rounded half away from zero: 23M/3, 10,350,001/3 = 3,450,000.33, 10M/3, 7/3 = 2.33, 3/3.
  t.match(v2, { shares: 10 * M, costBasis: 4_666_667, boughtShares: 7_666_667, boughtUsd: 3_450_000 });
  t.match(v2, { splitShares: 3_333_333, receivedShares: 2, receivedBasis: 1, firstTradeAt: TS - 600 });
  t.match(v2, { soldShares: 0, soldUsd: 0, fills: 0, fees: 0, realizedPnl: 0 }, 'exits, fills and fees stay');
  t.match(ctf, { shares: 20 * M, costBasis: 9_333_334, boughtShares: 15_333_333, boughtUsd: 6_900_001 });
  t.match(ctf, { splitShares: 6_666_667, receivedShares: 5, receivedBasis: 2, soldShares: 3 * M, fills: 3 });
  t.match(ctf, { fees: 40_000, realizedPnl: 650_000, firstTradeAt: TS - 600 });
});

t.test('behavior: burning more than is held marks partialHistory; the excess carries no basis', async (t) => {
  const parent = held(5 * M, 2 * M);
  const child = createPosition();
  foldRestructure([parent], [child], move({ burnAmounts: [8 * M], mintAmounts: [8 * M] }));
  t.match(parent, { shares: -3 * M, costBasis: 0 });
  t.ok(parent.flags & FLAG.partialHistory);
  t.match(child, { shares: 8 * M, costBasis: 2 * M });
});
