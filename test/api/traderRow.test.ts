// Trader rows' arithmetic: prices parsed exactly from decimal, default marks (last fills, payout, complement,
// one half), legs valued in micro-units and rounded once, a negative balance valued at nothing.
import t from 'tap';
import { defaultMarks, legValue } from '../../engine/valuation/marketPrices.js';
import { compareTraders, parsePrice, traderFigures, traderRow } from '../../api/rows/traderRow.js';
import { createMarketRecord } from '../../engine/state/marketRecords.js';
import { createPosition } from '../../engine/reducers/position.js';

t.test('behavior: prices parse exactly, 0 to 1, at most 9 decimals', async (t) => {
  t.same(parsePrice('0.53'), [53, 100]);
  t.same(parsePrice('.5'), [5, 10]);
  t.same(parsePrice('1'), [1, 1]);
  t.same(parsePrice('1.000'), [1000, 1000]);
  t.same(parsePrice('0'), [0, 1]);
  t.same(parsePrice('0.123456789'), [123456789, 1e9]);
  for (const bad of ['1.5', '2', '-0.1', '0.1234567891', 'abc', '', '0.5.5', '1e-3'])
    t.equal(parsePrice(bad), null, `${bad} refused`);
});

t.test('behavior: default marks', async (t) => {
  const market = createMarketRecord('0x' + '1'.repeat(64));
  t.same(
    defaultMarks(market),
    [
      [1, 2],
      [1, 2],
    ],
    "no fill: one half each, a split's price",
  );
  market.marks[0] = { usd: 620_000, shares: 1_000_000, ts: 5 };
  t.same(
    defaultMarks(market),
    [
      [620_000, 1_000_000],
      [380_000, 1_000_000],
    ],
    'one side traded: the other is its complement',
  );
  market.marks[1] = { usd: 300_000, shares: 1_000_000, ts: 6 };
  t.same(
    defaultMarks(market),
    [
      [620_000, 1_000_000],
      [300_000, 1_000_000],
    ],
    'both traded: each its last fill',
  );
  market.payoutNumerators = [0, 1];
  market.payoutDenominator = 1;
  t.same(
    defaultMarks(market),
    [
      [0, 1],
      [1, 1],
    ],
    'resolved: the payout',
  );
});

t.test('behavior: legs in micro-units, rounded once; a negative balance holds nothing', async (t) => {
  const long = { ...createPosition(), shares: 3_000_001, costBasis: 1_500_000, realizedPnl: 250_000 };
  t.equal(legValue(long, [2, 3]), 2_000_001, '3,000,001 x 2/3 = 2,000,000.67, rounded half away from zero');
  const short = { ...createPosition(), shares: -4_000_000, costBasis: 0, realizedPnl: 7_000_000 };
  t.equal(legValue(short, [1, 1]), 0);
  const figures = traderFigures({ wallet: '0x' + 'a'.repeat(40), positions: [long, short], migrated: null }, [
    [2, 3],
    [1, 1],
  ]);
  t.same([figures.realized, figures.unrealized, figures.total], [7_250_000, 500_001, 7_750_001]);
  const noReads = { market: () => ({ market: null, metadata: null }) };
  const row = traderRow(figures, createMarketRecord('0x' + 'c'.repeat(64)), noReads);
  t.same([row.realizedPnl, row.unrealizedPnl, row.totalPnl, row.shares], [7.25, 0.500001, 7.750001, [3.000001, -4]]);
  t.same(
    row.outcomes.map((o) => o.outcomeIndex),
    [0, 1],
  );
  const other = traderFigures(
    {
      wallet: '0x' + 'b'.repeat(40),
      positions: [null, { ...createPosition(), realizedPnl: 9_000_000 }],
      migrated: null,
    },
    [
      [2, 3],
      [1, 1],
    ],
  );
  t.same(
    [figures, other].sort(compareTraders('total')).map((f) => f.holder.wallet[2]),
    ['b', 'a'],
    'best total first',
  );
  const tie = traderFigures({ wallet: '0x' + '0'.repeat(40), positions: [long, short], migrated: null }, [
    [2, 3],
    [1, 1],
  ]);
  t.same(
    [figures, tie].sort(compareTraders('realized')).map((f) => f.holder.wallet[2]),
    ['0', 'a'],
    'ties by wallet',
  );
});
