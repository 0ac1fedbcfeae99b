// A wallet's positions in one outcome on both ledgers of a migrated market, as one (engine/valuation/sumPositions):
// every counter summed, flags joined, times over both.
import t from 'tap';
import { createPosition, FLAG, type Position } from '../../engine/reducers/position.js';
import { sumPositions } from '../../engine/valuation/sumPositions.js';

const M = 1_000_000;
const ctf: Position = {
  ...createPosition(),
  shares: 0,
  costBasis: 0,
  realizedPnl: 1 * M,
  boughtShares: 10 * M,
  boughtUsd: 4 * M,
  soldShares: 10 * M,
  soldUsd: 5 * M,
  fills: 2,
  firstTradeAt: 100,
  lastTradeAt: 200,
  lowSinceTs: 200,
};
const v2: Position = {
  ...createPosition(),
  shares: 40 * M,
  costBasis: 20 * M,
  splitShares: 40 * M,
  redemptions: 1,
  flags: FLAG.migrated,
  firstTradeAt: 50,
  lastTradeAt: 300,
};

t.test('default: counters summed, flags joined, first and last over both', async (t) => {
  t.same(sumPositions(ctf, v2), {
    ...createPosition(),
    shares: 40 * M,
    costBasis: 20 * M,
    realizedPnl: 1 * M,
    boughtShares: 10 * M,
    boughtUsd: 4 * M,
    soldShares: 10 * M,
    soldUsd: 5 * M,
    splitShares: 40 * M,
    fills: 2,
    redemptions: 1,
    flags: FLAG.migrated,
    firstTradeAt: 50,
    lastTradeAt: 300,
    lowSinceTs: 0,
  });
});

t.test('behavior: one side missing gives the other; an untouched side keeps no first time', async (t) => {
  t.equal(sumPositions(ctf, null), ctf);
  t.equal(sumPositions(null, v2), v2);
  t.equal(sumPositions(null, null), null);
  const empty = { ...createPosition(), lowSinceTs: 0 };
  t.match(sumPositions(empty, ctf), { firstTradeAt: 100, lowSinceTs: 200 }, 'still below 0.1 share: the later low');
});
