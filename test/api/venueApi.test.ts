// The venue's Data API shapes (issue 41, docs/venue-api.md) driven by a real client of that API, the
// `polymarket-data` SDK, against tally serving a demo venue on 127.0.0.1: its zod schemas validate every request and
// answer, and each figure is compared with tally's /v1 answer for the same wallet to 1e-6.
import t from 'tap';
import { Polymarket } from 'polymarket-data';
import { startServer } from '../../cli/commands/serveCommand.js';
import { busiestMarkets, createDemoData } from '../fixtures/demoData.js';
import { apiClient } from '../fixtures/apiClient.js';
import { runTally } from '../fixtures/runTally.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const { data, key, inputs } = await createDemoData(4_000, 12);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const base = `http://127.0.0.1:${server.port}`;
const call = apiClient(server.port, key);
const keyed: typeof fetch = (input, init) =>
  fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${key}` } });
const client = new Polymarket({ dataEndpoint: base, fetch: keyed }).data;
type PositionsParams = Parameters<typeof client.core.getPositions>[0];
type TradesParams = Parameters<typeof client.core.getTrades>[0];
type ActivityParams = Parameters<typeof client.core.getActivity>[0];
const getTrades = (params: Partial<TradesParams>) => client.core.getTrades(params as TradesParams);
const getActivity = (params: Partial<ActivityParams> & { user: string }) =>
  client.core.getActivity(params as ActivityParams);
/** The SDK's typings ask for every field its zod schema defaults (they are the schema's output type); it fills them. */
const getPositions = (params: Partial<PositionsParams> & { user: string }) =>
  client.core.getPositions(params as PositionsParams);

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6;

/** The wallets of the board's top rows: the demo's most active. */
const board = await call('/v1/leaderboard?limit=12');
const wallets: string[] = board.body.rows.map((row: { wallet: string }) => row.wallet);

/** A wallet's /v1 open positions, every page. */
async function openRows(wallet: string): Promise<any[]> {
  const answer = await call(`/v1/wallets/${wallet}/positions?status=open&limit=2500`);
  return answer.body.rows;
}

t.test('default: getPositions matches /v1 open positions, figure by figure', async (t) => {
  let compared = 0;
  for (const wallet of wallets) {
    const rows = await getPositions({ user: wallet, sizeThreshold: 0, limit: 500 });
    const byAsset = new Map(rows.map((row) => [row.asset, row]));
    for (const open of await openRows(wallet)) {
      if (open.conditionId === null) continue;
      const row = byAsset.get(open.tokenId);
      t.ok(row, `${wallet} ${open.tokenId} is in /positions`);
      if (!row) continue;
      const problems = [
        ['size', row.size, open.shares],
        ['avgPrice', row.avgPrice, open.avgPrice],
        ['initialValue', row.initialValue, open.costBasis],
        ['currentValue', row.currentValue, open.value ?? 0],
        ['curPrice', row.curPrice, open.mark ?? 0],
        ['realizedPnl', row.realizedPnl, open.realizedPnl],
        ['cashPnl', row.cashPnl, (open.value ?? 0) - open.costBasis],
      ].filter(([, a, b]) => !near(a as number, b as number));
      if (problems.length > 0) t.fail(`${wallet} ${open.tokenId}: ${JSON.stringify(problems)}`);
      t.equal(row.redeemable, open.redeemable, 'redeemable');
      t.equal(row.outcomeIndex, open.outcomeIndex);
      t.equal(row.conditionId.slice(0, open.conditionId.length), open.conditionId, 'the market');
      t.equal(row.proxyWallet, wallet);
      compared++;
    }
    // Rows /v1's open form leaves out hold less than its threshold (0.1 share), unresolved.
    const openAssets = new Set((await openRows(wallet)).map((row) => row.tokenId));
    for (const row of rows) if (!openAssets.has(row.asset)) t.ok(row.size < 0.1 && !row.redeemable, row.asset);
  }
  t.ok(compared > 20, `${compared} positions compared`);
});

t.test('behavior: sorted, paged and filtered variants are the same rows, as asked', async (t) => {
  const wallet = wallets[0]!;
  const all = await getPositions({ user: wallet, sizeThreshold: 0, limit: 500, sortBy: 'CURRENT' });
  t.ok(all.length >= 4, `${all.length} positions`);
  const values = all.map((row) => row.currentValue);
  t.same(
    values,
    [...values].sort((a, b) => b - a),
    'CURRENT, DESC by default',
  );
  const ascending = await getPositions({
    user: wallet,
    sizeThreshold: 0,
    limit: 500,
    sortBy: 'CURRENT',
    sortDirection: 'ASC',
  });
  t.same(
    ascending.map((row) => row.currentValue),
    [...values].sort((a, b) => a - b),
    'ASC',
  );
  const titles = await getPositions({ user: wallet, sizeThreshold: 0, limit: 500, sortBy: 'TITLE' });
  t.same(
    titles.map((row) => row.title),
    titles
      .map((row) => row.title)
      .sort()
      .reverse(),
    'TITLE',
  );
  const pages = [];
  for (let offset = 0; offset < all.length; offset += 3) {
    pages.push(...(await getPositions({ user: wallet, sizeThreshold: 0, limit: 3, offset, sortBy: 'CURRENT' })));
  }
  t.same(pages, all, 'pages of 3 make the whole list');
  const big = await getPositions({ user: wallet });
  t.same(
    big,
    all.filter((row) => row.size >= 1).sort((a, b) => b.size - a.size || (a.asset < b.asset ? -1 : 1)),
    'the defaults: at least 1 share, TOKENS DESC',
  );
  const market = all[0]!.conditionId;
  const inMarket = await getPositions({ user: wallet, sizeThreshold: 0, market: [market] });
  t.ok(inMarket.length > 0 && inMarket.every((row) => row.conditionId === market), 'one market');
  const redeemable = await getPositions({ user: wallet, sizeThreshold: 0, limit: 500, redeemable: true });
  t.same(
    redeemable.map((row) => row.asset).sort(),
    all
      .filter((row) => row.redeemable)
      .map((row) => row.asset)
      .sort(),
    'redeemable only',
  );
});

t.test('default: /closed-positions are the /v1 closed positions, figure by figure, sorted as asked', async (t) => {
  let compared = 0;
  for (const wallet of wallets.slice(0, 6)) {
    const rows: any[] = [];
    for (let offset = 0; ; offset += 50) {
      const page = await call(`/closed-positions?user=${wallet}&limit=50&offset=${offset}`);
      t.equal(page.status, 200);
      rows.push(...page.body);
      if (page.body.length < 50) break;
    }
    const pnls = rows.map((row) => row.realizedPnl);
    t.same(
      pnls,
      [...pnls].sort((a, b) => b - a),
      'REALIZEDPNL, DESC by default',
    );
    const closed = (await call(`/v1/wallets/${wallet}/closed-positions?limit=2500`)).body.rows.filter(
      (row: any) => row.conditionId !== null,
    );
    t.equal(rows.length, closed.length, `${wallet}: every closed position`);
    const byAsset = new Map(rows.map((row) => [row.asset, row]));
    for (const v1 of closed) {
      const row = byAsset.get(v1.tokenId);
      const same =
        row &&
        near(row.avgPrice, v1.entryPrice) &&
        near(row.totalBought, v1.sharesIn) &&
        near(row.realizedPnl, v1.settledPnl) &&
        row.timestamp === v1.exitAt;
      if (!same) t.fail(`${wallet} ${v1.tokenId}: ${JSON.stringify(row)} against ${JSON.stringify(v1)}`);
      compared++;
    }
    const latest = (await call(`/closed-positions?user=${wallet}&limit=50&sortBy=TIMESTAMP`)).body;
    const times = latest.map((row: any) => row.timestamp);
    t.same(
      times,
      [...times].sort((a, b) => b - a),
      'TIMESTAMP',
    );
  }
  t.ok(compared > 20, `${compared} closed positions compared`);
  t.equal((await call(`/closed-positions?user=${wallets[0]}`)).body.length <= 10, true, 'default limit 10');
});

t.test('default: getValue is the held positions at their prices', async (t) => {
  for (const wallet of wallets.slice(0, 6)) {
    const [value] = await client.core.getValue({ user: wallet });
    const rows = await getPositions({ user: wallet, sizeThreshold: 0, limit: 500 });
    const open = await openRows(wallet);
    t.equal(value!.user, wallet);
    t.ok(
      near(
        value!.value,
        rows.reduce((sum, row) => sum + row.currentValue, 0),
      ),
      'the sum of currentValue',
    );
    const fromV1 = open.reduce((sum, row) => sum + (row.value ?? 0), 0);
    const small = rows.filter((row) => row.size < 0.1).reduce((sum, row) => sum + row.currentValue, 0);
    t.ok(near(value!.value, fromV1 + small), `and of /v1's open values (${fromV1}) with the positions below 0.1 share`);
  }
});

t.test("default: getHolders lists each token's holders, their shares as their /v1 positions say", async (t) => {
  const markets = await busiestMarkets(data, 3);
  const answer = await client.core.getHolders({ market: markets, limit: 500, minBalance: 0 });
  t.equal(answer.length, 6, 'two tokens a market');
  let compared = 0;
  for (const { token, holders } of answer) {
    const amounts = holders.map((holder) => holder.amount);
    t.same(
      amounts,
      [...amounts].sort((a, b) => b - a),
      'most shares first',
    );
    for (const holder of holders.slice(0, 8)) {
      const raw = await call(`/v1/wallets/${holder.proxyWallet}/positions`);
      const own = raw.body.positions.find((p: any) => p.tokenId === token);
      t.ok(own && near(own.shares, holder.amount), `${holder.proxyWallet} holds ${holder.amount} of ${token}`);
      t.equal(holder.asset, token);
      compared++;
    }
  }
  t.ok(compared >= 24, `${compared} holders compared`);
  const [first] = await client.core.getHolders({ market: [markets[0]!], limit: 2, minBalance: 1 });
  t.ok(first!.holders.length <= 2 && first!.holders.every((holder) => holder.amount >= 1), 'limit, minBalance 1');
});

/** Every page of a /v1 trade list (`path` answers `trades` and `next`), newest first. */
async function allV1Trades(path: string, cursorName: string): Promise<any[]> {
  const trades: any[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const page = await call(
      `${path}${path.includes('?') ? '&' : '?'}limit=500${cursor ? `&${cursorName}=${cursor}` : ''}`,
    );
    trades.push(...page.body.trades);
    cursor = page.body.next;
  }
  return trades;
}

/** The Data API row of a /v1 trade, as /trades should answer it. */
const asVenueTrade = (trade: any) => ({
  proxyWallet: trade.wallet,
  side: trade.side,
  asset: trade.asset,
  size: trade.size,
  price: trade.price,
  timestamp: trade.ts,
  outcomeIndex: trade.outcomeIndex,
  transactionHash: trade.tx,
});
const picked = (row: any) =>
  asVenueTrade({ ...row, wallet: row.proxyWallet, ts: row.timestamp, tx: row.transactionHash });

t.test("default: the busiest market's trades read to their end through /trades equal its /v1 trades", async (t) => {
  const [market] = (await busiestMarkets(data, 1)) as [string];
  const v1 = await allV1Trades(`/v1/markets/${market}/trades`, 'cursor');
  t.ok(v1.length > 100, `${v1.length} trades`);
  const byOffset = [];
  for (let offset = 0; ; offset += 25) {
    const page = await getTrades({ market: [market], takerOnly: false, limit: 25, offset });
    byOffset.push(...page);
    if (page.length < 25) break;
  }
  t.same(byOffset.map(picked), v1.map(asVenueTrade), 'by offset, every fill both sides');
  t.ok(byOffset.every((row) => row.conditionId === market));
  const byCursor = [];
  let next: string | null = `/trades?market=${market}&takerOnly=false&limit=13`;
  while (next !== null) {
    const page = await call(next);
    t.equal(page.status, 200);
    byCursor.push(...page.body);
    const cursor = page.headers.get('x-next-cursor');
    const link = page.headers.get('link');
    if (cursor !== null)
      t.equal(
        link,
        `</trades?market=${market}&takerOnly=false&limit=13&cursor=${encodeURIComponent(cursor)}>; rel="next"`,
      );
    next = cursor === null ? null : link!.slice(1, link!.indexOf('>'));
  }
  t.same(byCursor, byOffset, 'by cursor, the same rows');
  const takers = await getTrades({ market: [market], limit: 10_000 });
  t.same(takers.map(picked), v1.filter((trade) => trade.role === 'taker').map(asVenueTrade), 'takerOnly by default');
  const big = await getTrades({
    market: [market],
    limit: 10_000,
    takerOnly: false,
    filterType: 'CASH',
    filterAmount: 20,
  });
  t.same(big.map(picked), v1.filter((trade) => trade.usd >= 20).map(asVenueTrade), 'CASH at least 20');
  const venue = [];
  let next2: string | null = '/trades?takerOnly=false&limit=2000';
  while (next2 !== null) {
    const page = await call(next2);
    venue.push(...page.body);
    const link = page.headers.get('link');
    next2 = link === null ? null : link.slice(1, link.indexOf('>'));
  }
  t.ok(venue.length > 3 * v1.length, `the venue's ${venue.length} fills, newest first`);
  t.same(
    venue.filter((row: any) => row.conditionId === market),
    byOffset,
    "with no market, event or user: the venue's fills, the market's among them in order",
  );
  const times = venue.map((row: any) => row.timestamp);
  t.same(
    times,
    [...times].sort((a, b) => b - a),
    'newest first',
  );
  const large = await getTrades({ takerOnly: false, limit: 10_000, filterType: 'TOKENS', filterAmount: 50 });
  t.same(large, venue.filter((row: any) => row.size >= 50).slice(0, 10_000), 'TOKENS at least 50, venue-wide');
  const sells = await getTrades({ market: [market], limit: 10_000, takerOnly: false, side: 'SELL' });
  t.same(sells.map(picked), v1.filter((trade) => trade.side === 'SELL').map(asVenueTrade), 'SELL');
});

t.test("default: a wallet's trades through /trades equal its /v1 trades", async (t) => {
  for (const wallet of wallets.slice(0, 3)) {
    const v1 = await allV1Trades(`/v1/wallets/${wallet}/trades`, 'before');
    const rows = await getTrades({ user: wallet, takerOnly: false, limit: 10_000 });
    t.same(rows.map(picked), v1.filter((trade) => trade.conditionId !== null).map(asVenueTrade), wallet);
    const market = rows[0]!.conditionId;
    const inMarket = await getTrades({ user: wallet, market: [market], takerOnly: false, limit: 10_000 });
    t.same(
      inMarket,
      rows.filter((row) => row.conditionId === market),
      'in one market',
    );
  }
  t.same((await call(`/trades?user=${wallets[0]}&filterType=CASH`)).body, {
    error: 'give filterType and filterAmount together',
  });
});

/** Every row of a wallet's /activity through the client, pages of 500 by offset (as the Data API pages). */
async function allActivity(params: Partial<ActivityParams> & { user: string }) {
  const rows = [];
  for (let offset = 0; ; offset += 500) {
    const page = await getActivity({ ...params, limit: 500, offset });
    rows.push(...page);
    if (page.length < 500) return rows;
  }
}

/** Sums of `field` by key. */
function sums<R>(rows: R[], key: (row: R) => string, field: (row: R) => number): Map<string, number> {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(key(row), (totals.get(key(row)) ?? 0) + field(row));
  return totals;
}

t.test("default: getActivity lists a wallet's fills and moves, each figure as /v1 has it", async (t) => {
  const seen = new Set<string>();
  for (const wallet of wallets) {
    const rows = await allActivity({ user: wallet });
    for (const row of rows) seen.add(row.type);
    const times = rows.map((row) => row.timestamp);
    t.same(
      times,
      [...times].sort((a, b) => b - a),
      `${wallet}: newest first by default`,
    );
    const v1 = (await allV1Trades(`/v1/wallets/${wallet}/trades`, 'before')).filter((trade) => trade.conditionId);
    const trades = rows.filter((row) => row.type === 'TRADE');
    t.same(trades.map(picked), v1.map(asVenueTrade), `${wallet}: a TRADE a fill, in order`);
    const usd = trades.filter((row, i) => !near(row.usdcSize, v1[i].usd));
    t.same(usd, [], "usdcSize is the fill's USD");
    // Each outcome's position counts a set split or merged; redemptions pay out per outcome.
    const positions: any[] = (await call(`/v1/wallets/${wallet}/positions`)).body.positions.filter(
      (p: any) => p.conditionId !== null,
    );
    const market = (p: any) => p.conditionId.padEnd(66, '0');
    const firstOutcome = positions.filter((p) => p.outcomeIndex === 0);
    const expected = {
      SPLIT: sums(firstOutcome, market, (p) => p.splitShares),
      MERGE: sums(firstOutcome, market, (p) => p.mergedShares),
      MERGE_USD: sums(positions, market, (p) => p.mergeUsd),
      REDEEM: sums(positions, market, (p) => p.redeemUsd),
    };
    const of = (type: string) => rows.filter((row) => row.type === type);
    const found = {
      SPLIT: sums(
        of('SPLIT'),
        (row) => row.conditionId,
        (row) => row.size,
      ),
      MERGE: sums(
        of('MERGE'),
        (row) => row.conditionId,
        (row) => row.size,
      ),
      MERGE_USD: sums(
        of('MERGE'),
        (row) => row.conditionId,
        (row) => row.usdcSize,
      ),
      REDEEM: sums(
        of('REDEEM'),
        (row) => row.conditionId,
        (row) => row.usdcSize,
      ),
    };
    for (const [figure, totals] of Object.entries(expected)) {
      const moved = found[figure as keyof typeof found];
      const wrong = [...totals].filter(([id, total]) => !near(moved.get(id) ?? 0, total));
      t.same(wrong, [], `${wallet}: ${figure} by market as its /v1 positions`);
      t.same(
        [...moved.keys()].filter((id) => !totals.has(id)),
        [],
        `${wallet}: ${figure} only in its markets`,
      );
    }
    // The client reads the empty side as none.
    t.ok(of('REDEEM').every((row) => row.size === row.usdcSize && row.asset === '' && row.side === undefined));
  }
  t.same([...seen].sort(), ['CONVERSION', 'MERGE', 'REDEEM', 'SPLIT', 'TRADE'], 'every type the demo has');
});

t.test('behavior: getActivity filtered, sorted and paged as asked', async (t) => {
  const wallet = wallets[3]!;
  const all = await allActivity({ user: wallet });
  t.ok(all.length > 500, `${all.length} rows, more than a page`);
  const ofTypes = await allActivity({ user: wallet, type: ['SPLIT', 'MERGE'] });
  t.same(
    ofTypes,
    all.filter((row) => row.type === 'SPLIT' || row.type === 'MERGE'),
    'type',
  );
  t.same(await allActivity({ user: wallet, type: ['REWARD'] }), [], 'no rewards: the venue pays them off-chain');
  const buys = await allActivity({ user: wallet, side: 'BUY' });
  t.same(
    buys,
    all.filter((row) => row.side === 'BUY'),
    'side',
  );
  const [start, end] = [all[300]!.timestamp, all[100]!.timestamp];
  t.same(
    await allActivity({ user: wallet, start, end }),
    all.filter((row) => row.timestamp >= start && row.timestamp <= end),
    'start and end, both included',
  );
  const market = all.find((row) => row.type === 'SPLIT')!.conditionId;
  t.same(
    await allActivity({ user: wallet, market: [market] }),
    all.filter((row) => row.conditionId === market),
    'one market',
  );
  const byCash = await allActivity({ user: wallet, sortBy: 'CASH' });
  const cash = byCash.map((row) => row.usdcSize);
  t.same(
    cash,
    [...cash].sort((a, b) => b - a),
    'CASH, DESC',
  );
  t.same(byCash.length, all.length);
  const byTokens = await allActivity({ user: wallet, sortBy: 'TOKENS', sortDirection: 'ASC' });
  const sizes = byTokens.map((row) => row.size);
  t.same(
    sizes,
    [...sizes].sort((a, b) => a - b),
    'TOKENS, ASC',
  );
  t.same(await allActivity({ user: wallet, sortDirection: 'ASC' }), [...all].reverse(), 'TIMESTAMP ASC: oldest first');
  const byCursor = [];
  let next: string | null = `/activity?user=${wallet}&limit=77`;
  while (next !== null) {
    const page = await call(next);
    t.equal(page.status, 200);
    byCursor.push(...page.body);
    const link = page.headers.get('link');
    next = link === null ? null : link.slice(1, link.indexOf('>'));
  }
  const raw = [];
  for (let offset = 0; offset < all.length; offset += 500)
    raw.push(...(await call(`/activity?user=${wallet}&limit=500&offset=${offset}`)).body);
  t.same(byCursor, raw, 'by cursor, the same rows');
  t.same((await call(`/activity?user=${wallet}&sortBy=CASH&cursor=1,2,3`)).body, {
    error: 'cursor pages newest first only (sortBy TIMESTAMP, sortDirection DESC)',
  });
  t.same((await call(`/activity?user=${wallet}&type=TRADES`)).status, 400);
  t.same((await call('/activity')).body, { error: 'user is required: 0x plus 40 hex' });
});

t.test("default: the Data API's leaderboard is tally's board in that API's rows, on tally's path", async (t) => {
  const cases = [
    ['timePeriod=ALL', 'period=all'],
    ['timePeriod=WEEK&orderBy=VOL', 'period=7d&sort=volume'],
    ['timePeriod=MONTH&category=CRYPTO', 'period=30d&category=crypto'],
    ['orderBy=PNL', 'period=1d'],
  ];
  for (const [venue, own] of cases) {
    const board = (await call(`/v1/leaderboard?${own}&limit=500`)).body;
    const expected = board.rows.map((row: any, i: number) => ({
      rank: String(i + 1),
      proxyWallet: row.wallet,
      vol: row.volume,
      pnl: row.totalPnl,
    }));
    const rows = [];
    for (let offset = 0; offset < board.total + 50; offset += 50) {
      const page = await call(`/v1/leaderboard?${venue}&limit=50&offset=${offset}`);
      t.equal(page.status, 200);
      t.equal(page.headers.get('x-tally-block'), String(board.block));
      rows.push(...page.body);
    }
    t.ok(rows.length > 10, `${venue}: ${rows.length} rows`);
    const picked = rows.map(({ rank, proxyWallet, vol, pnl }: any) => ({ rank, proxyWallet, vol, pnl }));
    t.same(picked, expected, `${venue}: /v1/leaderboard?${own}, row by row`);
    t.ok(rows.every((row: any) => row.userName === '' && row.verifiedBadge === false));
    const wallet = expected[3].proxyWallet;
    t.same(
      (await call(`/v1/leaderboard?${venue}&user=${wallet}`)).body.map((row: any) => row.rank),
      ['4'],
      'user',
    );
  }
  t.equal((await call('/v1/leaderboard?timePeriod=ALL&limit=99')).body.length, 50, 'limit clamped to 50');
  t.same((await call('/v1/leaderboard?userName=nobody')).body, [], 'a name no profile has');
  t.match((await call('/v1/leaderboard')).body, { sort: 'totalPnl', rows: Array }, "without them, tally's board");
  t.equal((await call('/v1/leaderboard?timePeriod=YEAR')).status, 400);
});

t.test("behavior: eventId keeps the rows of that Gamma event's markets", async (t) => {
  const metadata = JSON.parse(readFileSync(inputs.metadata, 'utf8')) as Array<{
    conditionId: string;
    slug: string;
    events?: Array<{ id: string }>;
  }>;
  const eventOf = new Map(metadata.map((market) => [market.conditionId.padEnd(66, '0'), market.events?.[0]?.id]));
  let checked = 0;
  for (const wallet of wallets.slice(0, 4)) {
    const all = await allActivity({ user: wallet });
    const events = [...new Set(all.map((row) => eventOf.get(row.conditionId)).filter((id) => id !== undefined))];
    for (const eventId of events.slice(0, 3)) {
      const inEvent = (row: { conditionId: string }) => eventOf.get(row.conditionId) === eventId;
      // A conversion of the event's markets shows the event's neg-risk market id.
      const moves = await allActivity({ user: wallet, eventId: [Number(eventId)] });
      t.same(
        moves.filter((row) => row.type !== 'CONVERSION'),
        all.filter(inEvent),
        `activity ${eventId}`,
      );
      const positions = await getPositions({ user: wallet, sizeThreshold: 0, limit: 500 });
      t.same(
        await getPositions({ user: wallet, sizeThreshold: 0, limit: 500, eventId: [Number(eventId)] }),
        positions.filter(inEvent),
        `positions ${eventId}`,
      );
      const trades = await getTrades({ user: wallet, takerOnly: false, limit: 10_000 });
      t.same(
        await getTrades({ user: wallet, takerOnly: false, limit: 10_000, eventId: [Number(eventId)] }),
        trades.filter(inEvent),
        `trades ${eventId}`,
      );
      checked++;
    }
  }
  t.ok(checked >= 6, `${checked} events`);
  const converter = wallets[2]!;
  const [conversion] = await allActivity({ user: converter, type: ['CONVERSION'] });
  t.ok(conversion, 'a conversion');
  const leg = metadata.find((market) => market.slug === conversion!.slug);
  t.same(
    await allActivity({ user: converter, type: ['CONVERSION'], market: [leg!.conditionId] }),
    [conversion],
    "a conversion is in its first NO leg's market",
  );
  t.same(
    await allActivity({ user: converter, type: ['CONVERSION'], market: [conversion!.conditionId] }),
    [conversion],
    "and in its event's market id",
  );
});

t.test('default: getTraded counts the markets a wallet has fills in', async (t) => {
  const wallet = wallets[0]!;
  const traded = await client.misc.getTraded({ user: wallet });
  const raw = await call(`/v1/wallets/${wallet}/positions`);
  const markets = new Set(
    raw.body.positions.filter((p: any) => p.fills > 0).map((p: any) => p.conditionId ?? p.tokenId),
  );
  t.same(traded, { user: wallet, traded: markets.size });
});

t.test('behavior: the answers carry their block, and the same keys and errors as /v1', async (t) => {
  const health = await call('/v1/health');
  const answer = await call(`/positions?user=${wallets[0]}`);
  t.equal(answer.status, 200);
  t.equal(answer.headers.get('x-tally-block'), String(health.body.block), 'X-Tally-Block: the served block');
  const cached = await call(`/positions?user=${wallets[0]}`);
  t.equal(cached.headers.get('x-tally-block'), String(health.body.block), 'a cached answer carries it too');
  t.ok(cached.headers.get('x-ratelimit-remaining'), 'rate headers as /v1');
  const unkeyed = await fetch(`${base}/positions?user=${wallets[0]}`);
  t.equal(unkeyed.status, 401);
  t.same((await call('/positions')).body, { error: 'user is required: 0x plus 40 hex' });
  t.same((await call('/positions?user=0x12')).body, { error: 'user must be 0x plus 40 hex' });
  t.same((await call(`/positions?user=${wallets[0]}&sortBy=SIZE`)).status, 400);
  t.same((await call(`/positions?user=${wallets[0]}&market=0x${'1'.repeat(64)}&eventId=5`)).body, {
    error: 'give market or eventId, not both',
  });
  await t.rejects(getPositions({ user: 'nope' }), /Invalid parameters/, 'the client checks too');
  const document = (await call('/v1/openapi.json')).body;
  const paths = ['/positions', '/closed-positions', '/value', '/traded', '/holders', '/trades', '/activity'];
  t.same(
    paths.map((path) => document.paths[path]?.get.tags),
    paths.map(() => ['Data API shapes']),
    'the OpenAPI document (and the /docs page drawn from it) lists them, under their own tag',
  );
  t.match(document.tags.find((tag: any) => tag.name === 'Data API shapes').description, /X-Tally-Block/);
  t.same(document.paths['/v1/leaderboard'].get.tags, ['Leaderboard', 'Data API shapes'], 'the leaderboard under both');
});

t.test(
  'behavior: with profiles loaded, rows carry their names, and the leaderboard finds a wallet by its name',
  async (t) => {
    const file = join(inputs.dir, 'inputs', 'profiles.json');
    t.equal(runTally(['profiles', '--data', data, '--file', file]).code, 0);
    const profiles = new Map(
      (JSON.parse(readFileSync(file, 'utf8')) as Array<{ proxyWallet: string; name: string }>).map((p) => [
        p.proxyWallet.toLowerCase(),
        p.name,
      ]),
    );
    const board = await call('/v1/leaderboard?timePeriod=ALL&limit=50');
    const named = board.body.find((row: any) => profiles.has(row.proxyWallet));
    t.ok(named, 'a ranked wallet has a profile');
    t.equal(named.userName, profiles.get(named.proxyWallet));
    const found = await call(
      `/v1/leaderboard?timePeriod=ALL&userName=${encodeURIComponent(named.userName.toUpperCase())}`,
    );
    t.same(found.body, [named], 'by its name, in any letter case');
    const [row] = await getActivity({ user: named.proxyWallet, limit: 1 });
    t.equal(row!.name, named.userName, "an activity row names its wallet's profile");
  },
);
