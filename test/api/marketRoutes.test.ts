// The market routes over HTTP on a small demo venue (spec 4.5-4.8, docs/design.md 5): each route's happy path and
// error texts, and the figures checked against each other: traders' legs equal to the wallets' own positions,
// trade counts equal to the wallets' rows in the market's trades, holders who all bought.
import t from 'tap';
import { startServer } from '../../cli/commands/serveCommand.js';
import { readFileSync } from 'node:fs';
import {
  EventAnswer,
  HolderLinesAnswer,
  MarketAnswer,
  MarketSearchAnswer,
  MarketTradersAnswer,
  MarketTradesAnswer,
  TopTradersAnswer,
  TradeCountsAnswer,
} from '../../api/schemas/answerSchemas.js';
import { busiestMarkets, createDemoData } from '../fixtures/demoData.js';
import { answerProblems } from '../fixtures/checkAnswer.js';
import { apiClient } from '../fixtures/apiClient.js';
import { ERROR } from '../../api/errorTexts.js';

const { data, key, inputs } = await createDemoData(4_000, 12);

const [market] = (await busiestMarkets(data, 1)) as [string];
const UNKNOWN = '0x' + 'ab'.repeat(32);

const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const call = apiClient(server.port, key);
const get = async (path: string) => {
  const { status, body } = await call(path);
  return { status, body };
};

/** Every trade of the market, newest first, through the cursor. */
async function allTrades(query = ''): Promise<any[]> {
  const trades: any[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const page: { status: number; body: any } = await get(
      `/v1/markets/${market}/trades?limit=97${query}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    if (page.status !== 200) throw new Error(JSON.stringify(page.body));
    trades.push(...page.body.trades);
    cursor = page.body.next;
  }
  return trades;
}
const order = (x: { ts: number; block: number; logIndex: number }) => x.block * 1e6 + x.logIndex;

t.test(
  'default: market trades newest first, paged with no gap and no overlap, filtered by outcome and side',
  async (t) => {
    const first = await get(`/v1/markets/${market}/trades`);
    t.equal(first.status, 200);
    t.same(answerProblems(MarketTradesAnswer, first.body), [], 'the answer matches its schema');
    t.match(first.body, { conditionId: market, complete: true });
    t.equal(first.body.trades.length, 100, 'default limit 100');
    t.ok(first.body.trades.every((x: any) => x.conditionId === market && !('market' in x)));
    const trades = await allTrades();
    t.ok(trades.length > 100, `${trades.length} trades`);
    t.ok(
      trades.every((x, i) => i === 0 || order(x) < order(trades[i - 1])),
      'strictly newest first',
    );
    t.equal(new Set(trades.map((x) => `${x.tx}:${x.logIndex}`)).size, trades.length, 'no trade twice');
    t.same(trades.slice(0, 100), first.body.trades, 'the pages continue the first answer');
    const buys = await allTrades('&side=BUY&outcome=0');
    t.same(
      buys,
      trades.filter((x) => x.side === 'BUY' && x.outcomeIndex === 0),
      'side and outcome filters',
    );
    t.equal(
      (await get(`/v1/markets/${market}/trades?limit=5000`)).body.trades.length,
      Math.min(1000, trades.length),
      'limit clamped to 1000',
    );
    t.equal((await get(`/v1/markets/${market}/trades?limit=0`)).body.trades.length, 1, 'and up to 1');
    const takers = trades.filter((x) => x.role === 'taker');
    t.ok(takers.length > 0 && takers.length < trades.length, 'a match is the taker fill plus one per maker order');
  },
);

t.test("default: the market route agrees with the market's trades and holder lines", async (t) => {
  const answer = await get(`/v1/markets/${market}`);
  t.equal(answer.status, 200);
  t.same(answerProblems(MarketAnswer, answer.body), [], 'the answer matches its schema');
  const trades = await allTrades();
  t.equal(answer.body.fills, trades.length, 'the fill count is the trades route rows');
  for (const outcome of [0, 1]) {
    const last = trades.find((x) => x.outcomeIndex === outcome);
    t.same(
      answer.body.lastFills[outcome],
      last ? { price: last.price, ts: last.ts } : null,
      `outcome ${outcome}: the last fill is the newest trade's`,
    );
  }
  const lines = await get(`/v1/markets/${market}/holder-lines`);
  t.equal(answer.body.resolved, lines.body.resolved, 'resolved as the holder lines say');
  t.same(
    answer.body.tokens,
    lines.body.outcomes.map((x: any) => x.tokenId),
    'tokens by outcome index',
  );
  t.equal(answer.body.payouts === null, !answer.body.resolved, 'payouts once resolved');
  const traded = trades[0];
  const walletTrades = await get(`/v1/wallets/${traded.wallet}/trades?market=${market}&limit=1`);
  const { outcome: _, ...marketOfTrade } = walletTrades.body.trades[0].market;
  t.same(answer.body.market, marketOfTrade, "the market object is the wallet trades' one");
});

t.test('default: a market search finds markets by the words of their question, most fills first', async (t) => {
  const { market: view, fills, resolved } = (await get(`/v1/markets/${market}`)).body;
  const words: string[] = view.question
    .split(/\s+/)
    .filter((word: string) => word.length > 3)
    .slice(0, 2);
  const found = await get(`/v1/markets?q=${encodeURIComponent(words.join(' ').toUpperCase())}&limit=100`);
  t.equal(found.status, 200);
  t.same(answerProblems(MarketSearchAnswer, found.body), [], 'the answer matches its schema');
  const row = found.body.markets.find((x: any) => x.conditionId === market);
  t.same(row, { conditionId: market, market: view, fills, resolved }, 'the market, any letter case');
  for (const x of found.body.markets) {
    const text = `${x.market.question} ${x.market.slug} ${x.market.eventSlug}`.toLowerCase();
    t.ok(
      words.every((word) => text.includes(word.toLowerCase())),
      `${x.conditionId}: holds every word`,
    );
  }
  t.ok(
    found.body.markets.every((x: any, i: number, all: any[]) => i === 0 || all[i - 1].fills >= x.fills),
    'most fills first',
  );
  const one = await get(`/v1/markets?q=${encodeURIComponent(words[0]!)}&limit=1`);
  t.equal(one.body.markets.length, Math.min(1, one.body.matched), 'limit');
  t.same((await get('/v1/markets?q=zzqqxxnothing')).body.markets, [], 'no match');
  for (const q of ['', 'a', 'x'.repeat(101)]) {
    t.same(await get(`/v1/markets?q=${q}`), { status: 400, body: { error: ERROR.badSearch } }, `q of ${q.length}`);
  }
});

t.test("default: an event is its metadata's title and its indexed markets, most fills first", async (t) => {
  const { market: view } = (await get(`/v1/markets/${market}`)).body;
  const objects = JSON.parse(readFileSync(inputs.metadata, 'utf8')) as any[];
  const ofEvent = objects.filter((object) => object.events?.[0]?.slug === view.eventSlug);
  const answer = await get(`/v1/events/${encodeURIComponent(view.eventSlug)}`);
  t.equal(answer.status, 200);
  t.same(answerProblems(EventAnswer, answer.body), [], 'the answer matches its schema');
  t.equal(answer.body.eventSlug, view.eventSlug);
  t.equal(answer.body.title, ofEvent[0].events[0].title, 'the title the market objects give');
  t.ok(answer.body.title.length > 0, 'the demo titles its events');
  const indexed: string[] = [];
  for (const object of ofEvent) {
    if ((await get(`/v1/markets/${object.conditionId}`)).status === 200) indexed.push(object.conditionId);
  }
  t.same(
    answer.body.markets.map((row: any) => row.conditionId).sort(),
    indexed.sort(),
    `the event's ${indexed.length} indexed markets`,
  );
  for (const row of answer.body.markets) {
    const { market: its, fills, resolved } = (await get(`/v1/markets/${row.conditionId}`)).body;
    t.same(
      row,
      { conditionId: row.conditionId, market: its, fills, resolved },
      `${row.conditionId}: as a search lists it`,
    );
  }
  t.ok(
    answer.body.markets.every((x: any, i: number, all: any[]) => i === 0 || all[i - 1].fills >= x.fills),
    'most fills first',
  );
  for (const slug of ['no-such-event', '%E0%A4%A']) {
    t.same(await get(`/v1/events/${slug}`), { status: 404, body: { error: ERROR.eventNotIndexed } }, slug);
  }
  t.equal((await get('/v1/events/heat')).body.window, '24h', 'the heat route is still the heat route');
});

t.test("default: traders are the wallets' own positions in the market, best total first", async (t) => {
  const answer = await get(`/v1/markets/${market}/traders?limit=1000`);
  t.equal(answer.status, 200);
  t.same(answerProblems(MarketTradersAnswer, answer.body), [], 'the answer matches its schema');
  const { traders, traderCount, marks, sort } = answer.body;
  t.equal(sort, 'total');
  t.equal(traders.length, traderCount, 'every trader within the limit');
  t.ok(
    traders.every((x: any, i: number) => i === 0 || traders[i - 1].totalPnl >= x.totalPnl),
    'best total first',
  );
  t.ok(
    marks.every((m: number) => m >= 0 && m <= 1),
    'marks are prices',
  );
  for (const trader of traders.slice(0, 15)) {
    const own = await get(`/v1/wallets/${trader.wallet}/positions?conditions=${market}`);
    const held = own.body.positions.filter(
      (p: any) =>
        p.fills > 0 ||
        p.splitShares > 0 ||
        p.boughtShares > 0 ||
        p.soldShares > 0 ||
        p.shares !== 0 ||
        p.redeemedShares > 0 ||
        p.mergedShares > 0 ||
        p.realizedPnl !== 0,
    );
    const legs = trader.outcomes.map((o: any) => [o.outcomeIndex, o.shares, o.realizedPnl, o.costBasis]);
    t.same(
      legs,
      held.map((p: any) => [p.outcomeIndex, p.shares, p.realizedPnl, p.costBasis]),
      `${trader.wallet}: its legs are its positions`,
    );
    const realized = trader.outcomes.reduce((sum: number, o: any) => sum + o.realizedPnl, 0);
    t.ok(Math.abs(trader.realizedPnl - realized) < 1e-6, 'realized is the sum of the legs');
    t.ok(Math.abs(trader.totalPnl - trader.realizedPnl - trader.unrealizedPnl) < 1e-6, 'total = realized + unrealized');
  }
  const realized = await get(`/v1/markets/${market}/traders?sort=realized&marks=0.5,0.25&limit=5`);
  t.same(realized.body.marks, [0.5, 0.25], 'marks as given');
  t.equal(realized.body.traders.length, 5);
  t.ok(
    realized.body.traders.every((x: any, i: number, all: any[]) => i === 0 || all[i - 1].realizedPnl >= x.realizedPnl),
    'best realized first',
  );
  const top = await get(`/v1/markets/${market}/top-traders`);
  t.same(answerProblems(TopTradersAnswer, top.body), [], 'top-traders matches its schema');
  t.equal(top.body.traders.length, Math.min(20, traderCount), 'top-traders default limit 20');
  t.same(
    top.body.traders.map((x: any) => x.wallet),
    traders.slice(0, top.body.traders.length).map((x: any) => x.wallet),
    'the same order at the same marks',
  );
  const [token0, token1] = Object.keys(top.body.marks);
  const marked = await get(`/v1/markets/${market}/top-traders?marks=${token0}:0.5,${token1}:0.25`);
  t.same(marked.body.marks, { [token0!]: 0.5, [token1!]: 0.25 }, 'marks by token id');
});

t.test('default: holder-lines groups of `top`, holders who all bought', async (t) => {
  const answer = await get(`/v1/markets/${market}/holder-lines?top=3`);
  t.equal(answer.status, 200);
  t.same(answerProblems(HolderLinesAnswer, answer.body), [], 'the answer matches its schema');
  t.equal(answer.body.top, 3);
  t.equal(answer.body.outcomes.length, 2);
  for (const outcome of answer.body.outcomes) {
    t.ok(outcome.holders.members.length <= 3 && outcome.traders.members.length <= 3);
    for (const member of outcome.holders.members) {
      const own = await get(`/v1/wallets/${member.wallet}/positions?conditions=${market}`);
      const leg = own.body.positions.find((p: any) => p.outcomeIndex === outcome.outcomeIndex);
      t.ok(leg.boughtShares > 0, `${member.wallet} bought (split-only wallets are left out)`);
      t.equal(member.shares, leg.shares);
    }
    const shares = outcome.holders.members.map((m: any) => m.shares);
    t.ok(
      shares.every((s: number, i: number) => i === 0 || shares[i - 1] >= s),
      'biggest holder first',
    );
  }
  const [token] = answer.body.outcomes.map((o: any) => o.tokenId);
  const priced = await get(`/v1/markets/${market}/holder-lines?prices=${token}:0.7`);
  t.equal(
    priced.body.resolved ? null : priced.body.outcomes[0].mark,
    priced.body.resolved ? null : 0.7,
    'a live price is the mark of an unresolved market',
  );
  t.equal((await get(`/v1/markets/${market}/holder-lines?top=99`)).body.top, 50, 'top clamped to 50');
});

t.test("default: trade counts equal each wallet's rows in the market's trades", async (t) => {
  const trades = await allTrades();
  const wallets = [...new Set(trades.map((x) => x.wallet))].slice(0, 6);
  const none = '0x' + '0'.repeat(40);
  const answer = await get(
    `/v1/markets/${market}/trade-counts?wallets=${[...wallets, none, 'nonsense'].join(',').toUpperCase().replace(/0X/g, '0x')}`,
  );
  t.equal(answer.status, 200);
  t.same(answerProblems(TradeCountsAnswer, answer.body), [], 'the answer matches its schema');
  for (const wallet of wallets) {
    const mine = trades.filter((x) => x.wallet === wallet);
    t.equal(answer.body.counts[wallet], mine.length, `${wallet}: its rows in the market's trades`);
    t.equal(answer.body.lastTs[wallet], Math.max(...mine.map((x) => x.ts)), "and the latest one's time");
  }
  t.equal(answer.body.counts[none], 0, 'a wallet that never traded: 0');
  t.equal(answer.body.lastTs[none], 0);
  t.notOk('nonsense' in answer.body.counts, 'malformed entries are skipped');
});

t.test('error: every market route names its bad input', async (t) => {
  for (const route of [
    '',
    'traders',
    'top-traders',
    'holder-lines',
    'trades',
    `trade-counts?wallets=0x${'1'.repeat(40)}`,
  ]) {
    t.same(
      await get(`/v1/markets/${UNKNOWN}${route && `/${route}`}`),
      { status: 404, body: { error: 'market not indexed' } },
      `${route}: unknown market`,
    );
    t.same(
      await get(`/v1/markets/0x12${route && `/${route}`}`),
      { status: 400, body: { error: 'conditionId must be 0x plus 64 hex' } },
      `${route}: bad id`,
    );
  }
  t.same(await get(`/v1/markets/${market}/trade-counts?wallets=`), {
    status: 400,
    body: { error: 'wallets: give 0x addresses, comma separated' },
  });
  t.same(await get(`/v1/markets/${market}/trade-counts?wallets=a,b`), {
    status: 400,
    body: { error: 'wallets: give 0x addresses, comma separated' },
  });
  t.same(await get(`/v1/markets/${market}/traders?marks=0.5`), { status: 400, body: { error: ERROR.badMarks } });
  t.same(await get(`/v1/markets/${market}/traders?marks=0.5,1.5`), { status: 400, body: { error: ERROR.badMarks } });
  t.same((await get(`/v1/markets/${market}/traders?sort=best`)).status, 400);
  t.same((await get(`/v1/markets/${market}/top-traders?marks=123:0.5`)).status, 400, 'a token of another market');
  t.same((await get(`/v1/markets/${market}/holder-lines?prices=1:2`)).status, 400);
  t.same(await get(`/v1/markets/${market}/trades?cursor=yesterday`), {
    status: 400,
    body: { error: 'cursor must be a cursor ts,block,logIndex' },
  });
  t.same((await get(`/v1/markets/${market}/trades?side=HOLD`)).status, 400);
  t.same((await get(`/v1/markets/${market}/trades?outcome=2`)).status, 400);
});
