// The one valuation rule (engine/valuation/marketPrices.ts, issue 26 item 3): an outcome's own mark is its payout
// once resolved, else its last fill, else none; where every leg needs a price, an outcome with none takes the
// complement of the other's, or 0.5 with no fill at all; a leg is worth its shares at the mark, a negative balance
// nothing.
import t from 'tap';
import { createPosition } from '../../engine/reducers/position.js';
import { createMarketRecord } from '../../engine/state/marketRecords.js';
import { defaultMarks, legValue, outcomeMark } from '../../engine/valuation/marketPrices.js';

const M = 1_000_000;
const market = () => createMarketRecord('0x' + '1'.repeat(64));

t.test('unit: an outcome that traded is marked at its last fill, one that never did at none', (t) => {
  const m = { ...market(), marks: [{ usd: 62 * M, shares: 100 * M, ts: 1_700_000_000 }, null] };
  t.same(outcomeMark(m, 0), { price: [62 * M, 100 * M], ts: 1_700_000_000 });
  t.equal(outcomeMark(m, 1), null, "the spec's mark is a last fill: none for an untraded outcome");
  t.same(
    defaultMarks(m),
    [
      [62 * M, 100 * M],
      [38 * M, 100 * M],
    ],
    'where every leg needs a price, the complement',
  );
  t.same(
    defaultMarks(market()),
    [
      [1, 2],
      [1, 2],
    ],
    'no fill at all: 0.5 each, the price a split books',
  );
  t.end();
});

t.test('unit: a resolved outcome is marked at its payout from the resolution on', (t) => {
  const m = {
    ...market(),
    marks: [{ usd: 90 * M, shares: 100 * M, ts: 1 }, null],
    payoutNumerators: [0, 1],
    payoutDenominator: 1,
    resolvedAt: 1_800_000_000,
  };
  t.same(outcomeMark(m, 0), { price: [0, 1], ts: 1_800_000_000 });
  t.same(outcomeMark(m, 1), { price: [1, 1], ts: 1_800_000_000 });
  t.same(defaultMarks(m), [
    [0, 1],
    [1, 1],
  ]);
  t.end();
});

t.test('unit: a leg is worth its shares at the mark, rounded half away from zero; a negative balance nothing', (t) => {
  const held = { ...createPosition(), shares: 3 * M };
  t.equal(legValue(held, [1, 3]), M);
  t.equal(legValue({ ...held, shares: 1 }, [1, 2]), 1, 'half a micro-dollar rounds away from zero');
  t.equal(legValue({ ...held, shares: -5 * M }, [1, 2]), 0, 'history tally did not see holds nothing');
  t.end();
});
