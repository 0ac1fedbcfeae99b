// The board routes over HTTP on a small demo venue (spec 4.3, 4.4, docs/design.md 4-5): each route's happy path and
// error texts, and the board checked against the wallets' own positions: every figure of the top 100 rows summed
// again from the wallet routes' rows.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../cli/commands/serveCommand.js';
import { LeaderboardAnswer, WalletCategoriesAnswer, WalletStatsAnswer } from '../../api/schemas/answerSchemas.js';
import { ERROR } from '../../api/errorTexts.js';
import { createDemoData } from '../fixtures/demoData.js';
import { answerProblems } from '../fixtures/checkAnswer.js';
import { apiClient } from '../fixtures/apiClient.js';
import { chooseWallets } from '../fixtures/walletAnswers.js';
import { openStateStore } from '../../engine/state/openStateStore.js';

const { data, key } = await createDemoData(5_000, 23);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const get = apiClient(server.port, key);
const near = (a: number, b: number, scale = 1) => Math.abs(a - b) <= 1e-6 * Math.max(1, scale);

/** Every row of the board for a query, through the pages. */
async function wholeBoard(query: string): Promise<any[]> {
  const rows: any[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page: any = await get(`/v1/leaderboard?${query}&limit=500&offset=${offset}`);
    if (page.status !== 200) throw new Error(JSON.stringify(page.body));
    rows.push(...page.body.rows);
    offset = page.body.next;
  }
  return rows;
}

t.test('default: the lifetime board, best total first, paged without gap or overlap', async (t) => {
  const first = await get('/v1/leaderboard');
  t.equal(first.status, 200);
  t.same(answerProblems(LeaderboardAnswer, first.body), [], 'the answer matches its schema');
  t.match(first.body, { period: 'all', category: 'global', sort: 'totalPnl', basis: 'board', offset: 0, from: 0 });
  t.equal(first.body.rows.length, 100, 'default limit 100');
  t.equal(first.body.to, first.body.asOf);
  const rows = await wholeBoard('');
  t.equal(rows.length, first.body.total, `${rows.length} wallets, each once`);
  t.equal(new Set(rows.map((r) => r.wallet)).size, rows.length);
  t.ok(
    rows.every((r, i) => i === 0 || rows[i - 1].totalPnl >= r.totalPnl),
    'best total first',
  );
  t.same(rows.slice(0, 100), first.body.rows, 'the pages continue the first answer');
  t.equal(
    (await get('/v1/leaderboard?limit=9999')).body.rows.length,
    Math.min(500, rows.length),
    'limit clamped to 500',
  );
  for (const [sort, key] of [
    ['realizedPnl', (r: any) => r.realizedPnl],
    ['volume', (r: any) => r.volume],
    ['roi', (r: any) => r.roi],
  ] as const) {
    const sorted = await wholeBoard(`sort=${sort}`);
    t.equal(sorted.length, rows.length);
    t.ok(
      sorted.every((r, i) => i === 0 || key(sorted[i - 1]) >= key(r)),
      `sorted by ${sort}`,
    );
  }
});

t.test("default: a category's board holds its rows; a window's rows equal the wallets' stats in it", async (t) => {
  const crypto = await wholeBoard('category=CRYPTO');
  t.ok(crypto.length > 0 && crypto.every((r) => r.category === 'Crypto'), `${crypto.length} Crypto rows`);
  const week = await get('/v1/leaderboard?period=7d&limit=20');
  t.equal(week.status, 200);
  t.match(week.body, { period: '7d', basis: 'settled' });
  t.equal(week.body.from, week.body.asOf - 7 * 86_400);
  for (const row of week.body.rows.slice(0, 10)) {
    const stats = await get(`/v1/wallets/${row.wallet}/stats?period=7d`);
    t.same(stats.body.row, row, `${row.wallet}: its 7d row`);
  }
  const old = await get(
    `/v1/leaderboard?from=${week.body.asOf - 30 * 86_400}&to=${week.body.asOf - 10 * 86_400}&limit=50`,
  );
  t.equal(old.status, 200);
  t.match(old.body, { period: 'custom', basis: 'settled' });
  t.ok(
    old.body.rows.every((r: any) => r.unrealizedPnl === 0 && r.open.count === 0),
    'a window that ends before now has no open book',
  );
});

t.test(
  "default: a year holds the demo's whole history, so 1y rows and ranks are the lifetime ones (docs/design.md 4)",
  async (t) => {
    const lifetime = await wholeBoard('');
    const asOf = (await get('/v1/leaderboard?limit=1')).body.asOf;
    t.ok(
      lifetime.every((row) => row.firstActivityAt > asOf - 365 * 86_400),
      "every wallet's first event is within the year",
    );
    for (const wallet of (await chooseWallets(data, 80)).slice(0, 40)) {
      const [all, year] = [
        await get(`/v1/wallets/${wallet}/stats?period=all`),
        await get(`/v1/wallets/${wallet}/stats?period=1y`),
      ];
      t.same(year.body.row, all.body.row, `${wallet}: 1y equals lifetime in every figure`);
      t.same(
        (await get(`/v1/wallets/${wallet}/categories?period=1y`)).body.rows,
        (await get(`/v1/wallets/${wallet}/categories`)).body.rows,
        `${wallet}: and in every category`,
      );
    }
    for (const sort of ['totalPnl', 'realizedPnl', 'volume', 'roi']) {
      const ranks = (rows: any[]) => rows.map((row) => row.wallet);
      t.same(
        ranks(await wholeBoard(`period=1y&sort=${sort}`)),
        ranks(sort === 'totalPnl' ? lifetime : await wholeBoard(`sort=${sort}`)),
        `the 1y board ranks like the lifetime one by ${sort}`,
      );
    }
  },
);

t.test('default: stats and categories', async (t) => {
  const [top] = (await get('/v1/leaderboard?limit=1')).body.rows;
  const stats = await get(`/v1/wallets/${top.wallet.toUpperCase().replace('0X', '0x')}/stats`);
  t.equal(stats.status, 200);
  t.same(answerProblems(WalletStatsAnswer, stats.body), [], 'the answer matches its schema');
  t.match(stats.body, { wallet: top.wallet, period: 'all', category: 'global', basis: 'board' });
  t.same(stats.body.row, top, 'the lifetime answer is the board row');
  const crypto = await get(`/v1/wallets/${top.wallet}/stats?period=7d&category=CRYPTO`);
  t.match(crypto.body, { category: 'Crypto', basis: 'settled', period: '7d' });
  const categories = await get(`/v1/wallets/${top.wallet}/categories`);
  t.equal(categories.status, 200);
  t.same(answerProblems(WalletCategoriesAnswer, categories.body), [], 'the answer matches its schema');
  const rows = categories.body.rows;
  t.ok(
    rows.length > 0 && rows.every((r: any, i: number) => i === 0 || rows[i - 1].realizedPnl >= r.realizedPnl),
    'biggest realized first',
  );
  for (const field of [
    'realizedPnl',
    'unrealizedPnl',
    'capital',
    'volume',
    'fees',
    'fills',
    'marketsTraded',
    'marketsDecided',
    'marketsWon',
    'redemptions',
    'approxMarkets',
  ]) {
    const sum = rows.reduce((total: number, r: any) => total + r[field], 0);
    t.ok(near(sum, top[field], Math.abs(top[field])), `${field}: the categories sum to global`);
  }
  for (const row of rows) {
    const one = await get(`/v1/wallets/${top.wallet}/stats?category=${row.category.toLowerCase()}`);
    t.same(one.body.row, row, `${row.category}: its stats row`);
  }
  const nobody = await get(`/v1/wallets/0x${'0'.repeat(39)}1/stats?period=30d`);
  t.equal(nobody.status, 200);
  t.match(
    nobody.body.row,
    { fills: 0, realizedPnl: 0, marketsTraded: 0, best: null, worst: null, open: { count: 0 } },
    'a wallet with nothing: zeros',
  );
});

t.test('error: bad parameters name themselves', async (t) => {
  const wallet = '0x' + 'a'.repeat(40);
  const cases: Array<[string, number, string]> = [
    [`/v1/wallets/${wallet}/stats?period=2d`, 400, ERROR.badPeriod],
    [`/v1/wallets/${wallet}/stats?to=1800000000`, 400, ERROR.badPeriod],
    [`/v1/wallets/${wallet}/stats?from=1800000000&to=1700000000`, 400, ERROR.badWindow],
    [`/v1/wallets/${wallet}/stats?from=soon`, 400, 'from must be an integer, 0 or more'],
    [`/v1/wallets/${wallet}/stats?category=sport`, 400, ERROR.unknownCategory],
    [`/v1/wallets/${wallet}/categories?period=1w`, 400, ERROR.badPeriod],
    ['/v1/wallets/0x123/stats', 400, ERROR.badWallet],
    ['/v1/leaderboard?sort=pnl', 400, 'sort must be totalPnl, realizedPnl, volume or roi'],
    ['/v1/leaderboard?offset=-1', 400, 'offset must be an integer, 0 or more'],
    ['/v1/leaderboard?category=all', 400, ERROR.unknownCategory],
  ];
  for (const [path, status, error] of cases) {
    const answer = await get(path);
    t.same([answer.status, answer.body], [status, { error }], path);
  }
  t.equal((await get(`/v1/wallets/${wallet}/stats?period=2d&from=1700000000`)).status, 200, 'from overrides period');
});

t.test('error: before the first rollup, 503 the leaderboard is not built yet', async (t) => {
  // A state with no rollup yet (a fold stopped before its rollup): its board record removed, while a live
  // process (this one) holds the log, so serve leaves the rollup to it (test/cli/boardRollup.test.ts).
  const unrolled = await createDemoData(500, 3);
  const store = openStateStore({ dir: join(unrolled.data, 'state') });
  await store.dbs.meta.remove('board');
  await store.close();
  writeFileSync(join(unrolled.data, 'log', 'LOCK'), String(process.pid));
  const other = await startServer({ data: unrolled.data, host: '127.0.0.1', port: 0 });
  try {
    const call = apiClient(other.port, unrolled.key);
    for (const path of [
      '/v1/leaderboard',
      `/v1/wallets/0x${'a'.repeat(40)}/stats`,
      `/v1/wallets/0x${'a'.repeat(40)}/categories`,
    ]) {
      const answer = await call(path);
      t.same([answer.status, answer.body], [503, { error: ERROR.boardNotBuilt }], path);
    }
    t.equal((await call('/v1/health')).body.rollups.leaderboard, null, 'health: no leaderboard rollup');
  } finally {
    await other.closeAll();
  }
  const health = await get('/v1/health');
  t.equal(health.body.rollups.leaderboard, health.body.block, "health: the rollup's block");
});

/** Every WalletRow of a wallet, each once: the closed ones (exitAt set) and the open ones still held. */
async function walletRows(wallet: string): Promise<any[]> {
  const rows: any[] = [];
  for (const status of ['closed', 'open']) {
    let offset: number | null = 0;
    while (offset !== null) {
      const page: any = await get(`/v1/wallets/${wallet}/positions?status=${status}&limit=2500&offset=${offset}`);
      rows.push(...page.body.rows.filter((r: any) => status === 'closed' || r.exitAt === null));
      offset = page.body.next;
    }
  }
  return rows;
}

t.test("default: the top 100 rows of the board agree with the wallets' own positions", async (t) => {
  const board = (await get('/v1/leaderboard?limit=100')).body.rows;
  t.equal(board.length, 100);
  const marks = new Map<string, Record<string, number>>();
  let valuedByDefault = 0;
  for (const row of board) {
    const rows = await walletRows(row.wallet);
    const markets = new Map<string, any[]>();
    for (const r of rows) {
      const market = r.conditionId ?? r.tokenId;
      markets.set(market, [...(markets.get(market) ?? []), r]);
    }
    const sum = (list: any[], f: (r: any) => number) => list.reduce((total, r) => total + f(r), 0);
    let unrealized = 0;
    for (const r of rows.filter((x) => x.open)) {
      let value = r.value;
      if (value === null) {
        // No fill of this token: valued at the market's default mark, the one the top-traders route reports.
        valuedByDefault++;
        if (!marks.has(r.conditionId))
          marks.set(r.conditionId, (await get(`/v1/markets/${r.conditionId}/top-traders?limit=1`)).body.marks);
        value = r.shares * marks.get(r.conditionId)![r.tokenId]!;
      }
      unrealized += value - r.costBasis;
    }
    const pnl = [...markets.values()].map((list) => ({
      pnl: Math.round(sum(list, (r) => r.settledPnl) * 1e6) / 1e6,
      decided: list.every((r) => r.exitAt !== null),
    }));
    const decided = pnl.filter((m) => m.decided);
    // An open market's whole PnL so far is unrealized: its partial exits' settled PnL and the open book (docs/design.md
    // 4).
    const openMarketsPnl = sum(
      [...markets.values()].filter((list) => !list.every((r) => r.exitAt !== null)).flat(),
      (r) => r.settledPnl,
    );
    const expected = {
      realizedPnl: sum(rows, (r) => r.settledPnl) - openMarketsPnl,
      unrealizedPnl: unrealized + openMarketsPnl,
      capital: sum(rows, (r) => r.invested),
      buyVolume: sum(rows, (r) => r.boughtUsd),
      sellVolume: sum(rows, (r) => r.soldUsd),
      fees: sum(rows, (r) => r.fees),
      shareVolume: sum(rows, (r) => r.boughtShares + r.soldShares),
      fills: sum(rows, (r) => r.fills),
      marketsTraded: markets.size,
      marketsDecided: decided.length,
      marketsWon: decided.filter((m) => m.pnl > 0).length,
      marketsLost: decided.filter((m) => m.pnl < 0).length,
      approxMarkets: [...markets.values()].filter((list) => list.some((r) => r.basisApprox || r.partialHistory)).length,
      openCount: rows.filter((r) => r.open).length,
    };
    const actual = { ...row, openCount: row.open.count };
    const wrong = Object.entries(expected).filter(
      ([field, value]) => !near(actual[field], value, Math.abs(value) * 10),
    );
    t.same(wrong, [], `${row.wallet}: every sum agrees`);
  }
  t.comment(`${valuedByDefault} open positions without a fill of their own, valued at the default mark`);
});
