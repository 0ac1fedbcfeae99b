// WalletRow settlement (spec 2.3): the payout counts the shares still held; a negative balance (history tally
// did not see) holds nothing.
import t from 'tap';
import { createPosition } from '../../engine/reducers/position.js';
import { createMarketRecord } from '../../engine/state/marketRecords.js';
import { settlement } from '../../engine/valuation/positionSettlement.js';

const resolvedYes = () =>
  Object.assign(createMarketRecord('0x' + '1'.repeat(64)), {
    payoutNumerators: [1, 0],
    payoutDenominator: 1,
    resolvedAt: 1_700_000_000,
    resolvedBlock: 10,
  });

t.test('behavior: selling 10 never-bought shares for $7, then YES resolves: settledPnl +7, not -3', async (t) => {
  const position = Object.assign(createPosition(), {
    shares: -10_000_000,
    costBasis: 0,
    realizedPnl: 7_000_000,
    soldShares: 10_000_000,
    soldUsd: 7_000_000,
    lastTradeAt: 1_600_000_000,
    lowSinceTs: 1_600_000_000,
  });
  t.equal(settlement(position, resolvedYes(), 0).settledPnl, 7_000_000);
});

t.test('default: shares held into the resolution are paid at the settle', async (t) => {
  const position = Object.assign(createPosition(), {
    shares: 10_000_000,
    costBasis: 4_000_000,
    boughtShares: 10_000_000,
    boughtUsd: 4_000_000,
  });
  t.equal(settlement(position, resolvedYes(), 0).settledPnl, 6_000_000, 'YES: 10 paid, 4 spent');
  t.equal(settlement(position, resolvedYes(), 1).settledPnl, -4_000_000, 'NO: nothing paid');
});
