// The leaderboard metrics of docs/design.md 4 on a small venue worked by hand: one wallet with a win held into the
// resolution and redeemed (M1), a loss sold out (M2), an open position (M3) and a basis approximated by a
// transfer (M4); windows that take markets in just inside and leave them out just outside; a custom window that
// does not end now (no open book); categories summing to global.
import t from 'tap';
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import { boardCategoryOf, GLOBAL, marketCategory, OTHER } from '../../engine/rollup/boardCategories.js';
import { LIFETIME, sumResults, type BoardWindow } from '../../engine/rollup/boardRow.js';
import { marketResult, type MarketLeg, type MarketResult } from '../../engine/rollup/marketResult.js';
import { packResults } from '../../engine/rollup/resultTable.js';
import { resultCount, type BoardRow } from '../../engine/state/boardRecords.js';
import { decodeResults, encodeResults } from '../../engine/state/boardTables.js';
import { createPosition, FLAG, type Position } from '../../engine/reducers/position.js';
import { createMarketRecord, type MarketRecord } from '../../engine/state/marketRecords.js';

const U = 1_000_000;
const DAY = 86_400;
const NOW = 1_800_000_000;
const ago = (days: number) => NOW - days * DAY;

function position(fields: Partial<Position>): Position {
  return Object.assign(createPosition(), fields);
}
function market(fields: Partial<MarketRecord>): MarketRecord {
  return Object.assign(createMarketRecord('0x' + '1'.repeat(64)), fields);
}

const category = (name: string) => marketCategory(name);
/** A market's result with every leg settled and marked by `record` (as every leg is but a migrated market's). */
const resultOf = (
  space: number,
  id: number,
  categoryId: number,
  record: MarketRecord | null,
  legs: Array<Omit<MarketLeg, 'market'>>,
) =>
  marketResult(
    space,
    id,
    categoryId,
    legs.map((leg) => ({ ...leg, market: record })),
  );
// M1, Politics: 100 YES bought for $40 plus a $0.20 fee 20 days ago; resolved YES 3 days ago; redeemed for $100
// 2 days ago: realized 100 - 40.20 = +59.80, held into the resolution, so decided 3 days ago.
const m1 = resultOf(
  ID_SPACE.condition,
  1,
  category('Politics'),
  market({ payoutNumerators: [1, 0], payoutDenominator: 1, resolvedAt: ago(3) }),
  [
    {
      outcomeIndex: 0,
      position: position({
        shares: 0,
        costBasis: 0,
        realizedPnl: 59.8 * U,
        boughtShares: 100 * U,
        boughtUsd: 40 * U,
        redeemedShares: 100 * U,
        redeemUsd: 100 * U,
        fees: 0.2 * U,
        fills: 1,
        redemptions: 1,
        firstTradeAt: ago(20),
        lastTradeAt: ago(2),
        lowSinceTs: ago(2),
      }),
    },
  ],
);
// M2, Sports: 50 NO bought for $30 15 days ago, sold for $10 8 days ago: realized -20, exited 8 days ago.
const m2 = resultOf(ID_SPACE.condition, 2, category('Sports'), market({}), [
  {
    outcomeIndex: 1,
    position: position({
      shares: 0,
      realizedPnl: -20 * U,
      boughtShares: 50 * U,
      boughtUsd: 30 * U,
      soldShares: 50 * U,
      soldUsd: 10 * U,
      fills: 2,
      firstTradeAt: ago(15),
      lastTradeAt: ago(8),
      lowSinceTs: ago(8),
    }),
  },
]);
// M3, Crypto: 200 YES bought for $50 a day ago, still held; YES last traded at 0.30: value 60, unrealized +10.
const m3 = resultOf(
  ID_SPACE.condition,
  3,
  category('crypto'),
  market({ marks: [{ usd: 3, shares: 10, ts: ago(1) }, null] }),
  [
    {
      outcomeIndex: 0,
      position: position({
        shares: 200 * U,
        costBasis: 50 * U,
        boughtShares: 200 * U,
        boughtUsd: 50 * U,
        fills: 1,
        firstTradeAt: ago(1),
        lastTradeAt: ago(1),
      }),
    },
  ],
);
// M4, Politics: 20 YES received by transfer with $10 of basis 10 days ago (basisApprox), sold for $14 exactly 7
// days ago: realized +4, decided at the 7-day window's first second.
const m4 = resultOf(ID_SPACE.condition, 4, category('Politics'), market({}), [
  {
    outcomeIndex: 0,
    position: position({
      shares: 0,
      realizedPnl: 4 * U,
      soldShares: 20 * U,
      soldUsd: 14 * U,
      fills: 1,
      receivedShares: 20 * U,
      receivedBasis: 10 * U,
      firstTradeAt: ago(10),
      lastTradeAt: ago(7),
      lowSinceTs: ago(7),
      flags: FLAG.basisApprox,
    }),
  },
]);
const results = [m1, m2, m3, m4];

/** A row's figures as the API shows them (USD), with the ratios docs/design.md 4 defines. */
function figures(row: BoardRow) {
  return {
    realizedPnl: row.realizedPnl / U,
    unrealizedPnl: row.unrealizedPnl / U,
    capital: row.capital / U,
    buyVolume: row.buyVolume / U,
    sellVolume: row.sellVolume / U,
    shareVolume: row.shareVolume / U,
    fees: row.fees / U,
    fills: row.fills,
    marketsTraded: row.marketsTraded,
    marketsDecided: row.marketsDecided,
    marketsWon: row.marketsWon,
    marketsLost: row.marketsLost,
    winsUsd: row.winsUsd / U,
    lossesUsd: row.lossesUsd / U,
    holdSeconds: row.holdSeconds,
    redemptions: row.redemptions,
    firstActivityAt: row.firstActivityAt,
    lastActivityAt: row.lastActivityAt,
    open: [row.openCount, row.openValue / U, row.openCost / U],
    approxMarkets: row.approxMarkets,
    best: row.best && [row.best.id, row.best.pnl / U],
    worst: row.worst && [row.worst.id, row.worst.pnl / U],
  };
}

t.test('market results: decision times, the open book at the last fill, approximation', async (t) => {
  t.equal(m1.decidedAt, ago(3), 'held into the resolution: decided when it resolved');
  t.equal(m1.settledPnl, 59.8 * U);
  t.equal(m2.decidedAt, ago(8), 'sold out: decided at its last event');
  t.equal(m3.decidedAt, 0, 'still held in an unresolved market: not decided');
  t.same([m3.openCount, m3.openValue, m3.openCost], [1, 60 * U, 50 * U]);
  t.equal(m4.approx, true);
  t.equal(m1.approx || m2.approx || m3.approx, false);
});

t.test('lifetime: every metric of docs/design.md 4', async (t) => {
  const row = sumResults(packResults(results), LIFETIME).get(GLOBAL)!;
  t.same(figures(row), {
    realizedPnl: 59.8 - 20 + 4,
    unrealizedPnl: 10,
    capital: 40 + 30 + 50,
    buyVolume: 120,
    sellVolume: 24,
    shareVolume: 100 + 50 + 200 + 50 + 20,
    fees: 0.2,
    fills: 5,
    marketsTraded: 4,
    marketsDecided: 3,
    marketsWon: 2,
    marketsLost: 1,
    winsUsd: 63.8,
    lossesUsd: -20,
    holdSeconds: (17 + 7 + 3) * DAY,
    redemptions: 1,
    firstActivityAt: ago(20),
    lastActivityAt: ago(1),
    open: [1, 60, 50],
    approxMarkets: 1,
    best: [1, 59.8],
    worst: [2, -20],
  });
});

t.test(
  'a rolling 7-day window: decided inside counts in full, just outside not; open markets traded in it count',
  async (t) => {
    const window: BoardWindow = { all: false, from: ago(7), to: null, endsNow: true };
    const row = sumResults(packResults(results), window).get(GLOBAL)!;
    t.same(figures(row), {
      // M1 (decided 3 days ago), M4 (decided at the window's first second) and M3 (open, bought a day ago); M2
      // (decided 8 days ago) is outside. Every sum covers the same three markets.
      realizedPnl: 59.8 + 4,
      unrealizedPnl: 10,
      capital: 40 + 50,
      buyVolume: 40 + 50,
      sellVolume: 14,
      shareVolume: 100 + 20 + 200,
      fees: 0.2,
      fills: 3,
      marketsTraded: 3,
      marketsDecided: 2,
      marketsWon: 2,
      marketsLost: 0,
      winsUsd: 63.8,
      lossesUsd: 0,
      holdSeconds: (17 + 3) * DAY,
      redemptions: 1,
      firstActivityAt: ago(20),
      lastActivityAt: ago(1),
      open: [1, 60, 50],
      approxMarkets: 1,
      best: [1, 59.8],
      worst: [4, 4],
    });
    const later: BoardWindow = { all: false, from: ago(7) + 1, to: null, endsNow: true };
    t.equal(sumResults(packResults(results), later).get(GLOBAL)!.marketsDecided, 1, 'a second later M4 falls outside');
  },
);

t.test('a custom window that does not end now: the markets decided inside it, no open book', async (t) => {
  const window: BoardWindow = { all: false, from: ago(9), to: ago(5), endsNow: false };
  const row = sumResults(packResults(results), window).get(GLOBAL)!;
  t.same(figures(row), {
    // M2 (8 days ago) and M4 (7 days ago) are decided inside; M1 (3 days ago) after it; M3 is open.
    realizedPnl: -20 + 4,
    unrealizedPnl: 0,
    capital: 30,
    buyVolume: 30,
    sellVolume: 24,
    shareVolume: 120,
    fees: 0,
    fills: 3,
    marketsTraded: 2,
    marketsDecided: 2,
    marketsWon: 1,
    marketsLost: 1,
    winsUsd: 4,
    lossesUsd: -20,
    holdSeconds: (7 + 3) * DAY,
    redemptions: 0,
    firstActivityAt: ago(15),
    lastActivityAt: ago(7),
    open: [0, 0, 0],
    approxMarkets: 1,
    best: [4, 4],
    worst: [2, -20],
  });
  const exclusive: BoardWindow = { all: false, from: ago(9), to: ago(7), endsNow: false };
  t.equal(
    sumResults(packResults(results), exclusive).get(GLOBAL)!.marketsDecided,
    1,
    '`to` is exclusive: M4, decided at it, is left out',
  );
});

// M5, Sports: 100 YES bought for $40 5 days ago; 60 sold for $36 2 days ago (realized 36 - 24 = +12); 40 held at
// a basis of $16 in the unresolved market, YES last traded at 0.60: value 24. Its whole PnL so far is 12 + 24 - 16.
const m5 = resultOf(
  ID_SPACE.condition,
  5,
  category('Sports'),
  market({ marks: [{ usd: 6, shares: 10, ts: ago(2) }, null] }),
  [
    {
      outcomeIndex: 0,
      position: position({
        shares: 40 * U,
        costBasis: 16 * U,
        realizedPnl: 12 * U,
        boughtShares: 100 * U,
        boughtUsd: 40 * U,
        soldShares: 60 * U,
        soldUsd: 36 * U,
        fills: 2,
        firstTradeAt: ago(5),
        lastTradeAt: ago(2),
      }),
    },
  ],
);

t.test(
  "a partial exit in a market still open: its realized part is the open market's, unrealized until decided",
  async (t) => {
    t.equal(m5.decidedAt, 0, 'shares left in an unresolved market: open');
    t.same([m5.settledPnl, m5.openCount, m5.openValue, m5.openCost], [12 * U, 1, 24 * U, 16 * U]);
    const lifetime = sumResults(packResults([m5]), LIFETIME).get(GLOBAL)!;
    t.same(figures(lifetime), {
      realizedPnl: 0,
      unrealizedPnl: 12 + 24 - 16,
      capital: 40,
      buyVolume: 40,
      sellVolume: 36,
      shareVolume: 160,
      fees: 0,
      fills: 2,
      marketsTraded: 1,
      marketsDecided: 0,
      marketsWon: 0,
      marketsLost: 0,
      winsUsd: 0,
      lossesUsd: 0,
      holdSeconds: 0,
      redemptions: 0,
      firstActivityAt: ago(5),
      lastActivityAt: ago(2),
      open: [1, 24, 16],
      approxMarkets: 0,
      best: null,
      worst: null,
    });
    const week = sumResults(packResults([m5]), { all: false, from: ago(7), to: null, endsNow: true }).get(GLOBAL)!;
    t.same(week, lifetime, 'a window holding all of its events gives the lifetime row');
    const day = sumResults(packResults([m5]), { all: false, from: ago(1), to: null, endsNow: true });
    t.equal(day.size, 0, 'no event in the last day: an open market is outside the 1-day window');
  },
);

t.test("a window holding all of a wallet's activity gives exactly its lifetime rows, every category", async (t) => {
  const table = packResults([...results, m5].sort((a, b) => a.id - b.id));
  const lifetime = sumResults(table, LIFETIME);
  t.same(sumResults(table, { all: false, from: ago(20), to: null, endsNow: true }), lifetime, 'from the first event');
  t.same(sumResults(table, { all: false, from: ago(365), to: null, endsNow: true }), lifetime, 'a year');
  t.same(
    sumResults(table, { all: false, from: ago(365), to: NOW + DAY, endsNow: true }),
    lifetime,
    'a custom window past now',
  );
  const after = sumResults(table, { all: false, from: ago(8) + 1, to: null, endsNow: true }).get(GLOBAL)!;
  t.equal(
    after.marketsTraded,
    lifetime.get(GLOBAL)!.marketsTraded - 1,
    'a window starting a second after M2 was decided leaves M2 out',
  );
});

t.test('categories sum to global', async (t) => {
  for (const window of [
    LIFETIME,
    { all: false, from: ago(7), to: null, endsNow: true },
    { all: false, from: ago(9), to: ago(5), endsNow: false },
  ]) {
    const rows = sumResults(packResults(results), window);
    const global = rows.get(GLOBAL)!;
    const summed: Record<string, number> = {};
    for (const [category, row] of rows) {
      if (category === GLOBAL) continue;
      for (const [field, value] of Object.entries(row))
        if (typeof value === 'number') summed[field] = (summed[field] ?? 0) + value;
    }
    for (const [field, value] of Object.entries(global)) {
      if (typeof value !== 'number' || field === 'firstActivityAt' || field === 'lastActivityAt') continue;
      t.equal(summed[field], value, `${field} sums to global`);
    }
  }
  t.same(
    [...sumResults(packResults(results), LIFETIME).keys()].sort(),
    [GLOBAL, category('Politics'), category('Sports'), category('Crypto')].sort(),
  );
});

t.test(
  'a short position held into the resolution pays nothing; a token no market explains is Other, never best or worst',
  async (t) => {
    // Sold 10 never-bought shares for $7; the market resolves YES: the negative balance holds nothing, so +7.
    const short = resultOf(
      ID_SPACE.condition,
      5,
      OTHER,
      market({ payoutNumerators: [1, 0], payoutDenominator: 1, resolvedAt: ago(1) }),
      [
        {
          outcomeIndex: 0,
          position: position({
            shares: -10 * U,
            realizedPnl: 7 * U,
            soldShares: 10 * U,
            soldUsd: 7 * U,
            fills: 1,
            firstTradeAt: ago(2),
            lastTradeAt: ago(2),
            lowSinceTs: ago(2),
            flags: FLAG.partialHistory,
          }),
        },
      ],
    );
    t.equal(short.settledPnl, 7 * U);
    t.equal(short.decidedAt, ago(2), 'below 0.1 share before the resolution: decided at its last event');
    t.equal(short.approx, true, 'partialHistory makes an approximated market');
    const unknown = resultOf(ID_SPACE.token, 9, OTHER, null, [
      {
        outcomeIndex: -1,
        position: position({
          shares: 0,
          realizedPnl: 50 * U,
          soldShares: 10 * U,
          soldUsd: 50 * U,
          fills: 1,
          firstTradeAt: ago(3),
          lastTradeAt: ago(3),
          lowSinceTs: ago(3),
        }),
      },
    ]);
    const row = sumResults(packResults([short, unknown]), LIFETIME).get(OTHER)!;
    t.equal(row.realizedPnl, 57 * U);
    t.equal(row.marketsWon, 2);
    t.same(row.best, { space: ID_SPACE.condition, id: 5, pnl: 7 * U }, 'best names a condition');
    const held = resultOf(ID_SPACE.token, 9, OTHER, null, [
      {
        outcomeIndex: -1,
        position: position({
          shares: 4 * U,
          costBasis: 1 * U,
          boughtShares: 4 * U,
          boughtUsd: 1 * U,
          fills: 1,
          firstTradeAt: ago(1),
          lastTradeAt: ago(1),
        }),
      },
    ]);
    t.same([held.openCount, held.openValue], [1, 2 * U], 'an unknown token is valued at the split price, 0.5');
  },
);

t.test('category names in any letter case', async (t) => {
  t.equal(boardCategoryOf('CRYPTO'), category('Crypto'));
  t.equal(boardCategoryOf('other'), OTHER);
  t.equal(boardCategoryOf('Global'), GLOBAL);
  t.equal(boardCategoryOf('sport'), null);
  t.equal(marketCategory(null), OTHER);
  t.equal(marketCategory('global'), OTHER, 'no market is in the category global');
});

t.test('results are in market key order in every row sum (best ties keep the first)', async (t) => {
  const tie: MarketResult[] = [
    resultOf(ID_SPACE.condition, 7, OTHER, market({}), [
      {
        outcomeIndex: 0,
        position: position({
          realizedPnl: 5 * U,
          fills: 1,
          firstTradeAt: ago(4),
          lastTradeAt: ago(4),
          lowSinceTs: ago(4),
        }),
      },
    ]),
    resultOf(ID_SPACE.condition, 8, OTHER, market({}), [
      {
        outcomeIndex: 0,
        position: position({
          realizedPnl: 5 * U,
          fills: 1,
          firstTradeAt: ago(4),
          lastTradeAt: ago(4),
          lowSinceTs: ago(4),
        }),
      },
    ]),
  ];
  t.equal(sumResults(packResults(tie), LIFETIME).get(GLOBAL)!.best!.id, 7);
});

t.test("a wallet's results survive storage byte for byte, from any byte offset", async (t) => {
  const table = packResults(results);
  const stored = encodeResults(table);
  const shifted = Buffer.concat([Buffer.alloc(3), stored]).subarray(3);
  t.same([...decodeResults(shifted)], [...table]);
  t.equal(resultCount(table), 4);
  t.same(sumResults(decodeResults(shifted), LIFETIME), sumResults(table, LIFETIME));
});
