// A market is stored as identity and marks (marketRecords): the two values join back into the same record.
import t from 'tap';
import {
  createMarketRecord,
  joinMarket,
  marketIdentity,
  marketMarks,
  type MarketRecord,
} from '../../engine/state/marketRecords.js';
import { decodeValue, encodeValue } from '../../engine/state/stateCodec.js';

const stored = (value: unknown) => decodeValue<never>(encodeValue(value));

t.test('default: identity and marks join back into the record', async (t) => {
  const record: MarketRecord = {
    ...createMarketRecord('0x' + 'ab'.repeat(32)),
    oracle: '0x' + '11'.repeat(20),
    preparedAt: 1_700_000_000,
    negRisk: true,
    tokens: ['1'.repeat(64), '2'.repeat(64)],
    payoutNumerators: [1, 0],
    payoutDenominator: 1,
    resolvedAt: 1_700_000_500,
    marks: [{ usd: 420_000, shares: 1_000_000, ts: 1_700_000_100 }, null],
    fills: 7,
  };
  const joined = joinMarket(stored(marketIdentity(record)), stored(marketMarks(record)));
  t.same(joined, record);
  t.notOk('marks' in (marketIdentity(record) as object), 'the identity leaves the marks out');
});

t.test('edge: a market with no fill yet has no marks value', async (t) => {
  const record = createMarketRecord('0x' + 'cd'.repeat(32));
  t.same(joinMarket(stored(marketIdentity(record)), undefined), record);
});
