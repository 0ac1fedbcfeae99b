// GET /v1/fills (spec 4.9) and GET /v1/events/heat (spec 4.12) over HTTP on a small demo venue: the feed's rows
// decode back to the market trades route's fills, merged across markets in chain order, paged by cursor with no
// gap, gzipped on request, its strict parameters refused; heat counts distinct wallets per event as the trades
// show them.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { startServer } from '../../cli/commands/serveCommand.js';
import { EXCHANGE_LABEL } from '../../engine/chain/chainEvent.js';
import { EventHeatAnswer, FillsFeedAnswer } from '../../api/schemas/answerSchemas.js';
import { FEED_ERRORS } from '../../api/routes/fillsFeedRoute.js';
import { busiestMarkets, createDemoData } from '../fixtures/demoData.js';
import { answerProblems } from '../fixtures/checkAnswer.js';
import { apiClient } from '../fixtures/apiClient.js';

const { data, key, inputs } = await createDemoData(4_000, 12);
const markets = await busiestMarkets(data, 3);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const get = apiClient(server.port, key);

const EXCHANGE_CODE = new Map(Object.entries(EXCHANGE_LABEL).map(([code, label]) => [label, Number(code)]));
const micros = (value: number) => Math.round(value * 1_000_000);

/** Every trade of a market, oldest first. */
async function trades(market: string): Promise<any[]> {
  const all: any[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const page = await get(`/v1/markets/${market}/trades?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
    all.push(...page.body.trades);
    cursor = page.body.next;
  }
  return all.reverse();
}

/** A trade as the feed's 11 integers. */
const feedRow = (index: number, x: any) => [
  index,
  x.ts,
  x.block,
  x.logIndex,
  x.outcomeIndex,
  x.side === 'BUY' ? 0 : 1,
  micros(x.size),
  micros(x.usd),
  EXCHANGE_CODE.get(x.exchange),
  x.role === 'taker' ? 1 : 0,
  micros(x.fee),
];

/** Every feed row of the window, through the cursor, `limit` a page. */
async function feed(query: string, limit: number): Promise<{ rows: number[][]; pages: number; last: any }> {
  const rows: number[][] = [];
  let cursor: string | null = '';
  let pages = 0;
  let last: any = null;
  while (cursor !== null) {
    last = await get(`/v1/fills?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    if (last.status !== 200) throw new Error(JSON.stringify(last.body));
    rows.push(...last.body.fills);
    cursor = last.body.next;
    pages++;
  }
  return { rows, pages, last };
}

const all = await Promise.all(markets.map(trades));
// The last week of the venue: the demo spans more than the feed's 7-day window.
const to = Math.max(...all.map((list) => list.at(-1).ts)) + 1;
const from = to - 604_800;
const window = (list: any[]) => list.filter((x) => x.ts >= from && x.ts < to);

t.test("default: the rows are the market trades route's fills, oldest first, in every page size", async (t) => {
  const one = await get(`/v1/fills?markets=${markets[0]}&from=${from}&to=${to}`);
  t.equal(one.status, 200);
  t.same(answerProblems(FillsFeedAnswer, one.body), [], 'the answer matches its schema');
  const expected = window(all[0]!).map((x) => feedRow(0, x));
  t.ok(expected.length > 20, `${expected.length} fills`);
  t.same(one.body.fills, expected.slice(0, 10_000), 'one page: every fill as the trades route shows it');
  const paged = await feed(`markets=${markets[0]}&from=${from}&to=${to}`, 37);
  t.same(paged.rows, expected, 'pages of 37: the same rows, no gap, no overlap');
  t.ok(paged.pages > 1, `${paged.pages} pages`);
  t.equal(paged.last.body.next, null, 'the last page has no next');
});

t.test("behavior: several markets merge in chain order, each row naming its market's place in the list", async (t) => {
  const expected = markets
    .flatMap((_, i) => window(all[i]!).map((x) => feedRow(i, x)))
    .sort((a, b) => a[2]! - b[2]! || a[3]! - b[3]!);
  const { rows } = await feed(`markets=${markets.join(',')}&from=${from}&to=${to}`, 101);
  t.same(rows, expected);
  const shifted = await feed(`markets=${markets.join(',')}&from=${from + 3600}&to=${from + 7200}`, 50_000);
  t.same(
    shifted.rows,
    expected.filter((row) => row[1]! >= from + 3600 && row[1]! < from + 7200),
    'a narrower window: its fills only',
  );
});

t.test('behavior: gzipped on request, the same answer', async (t) => {
  const query = `/v1/fills?markets=${markets.join(',')}&from=${from}&to=${to}`;
  // fetch asks for gzip unless told otherwise.
  const plain = await get(query, { 'accept-encoding': 'identity' });
  const zipped = await get(query, { 'accept-encoding': 'gzip' });
  t.equal(zipped.headers.get('content-encoding'), 'gzip');
  t.equal(plain.headers.get('content-encoding'), null);
  t.same(zipped.body, plain.body);
});

t.test('error: strict parameters are refused, never clamped', async (t) => {
  const base = `markets=${markets[0]}&from=${from}&to=${to}`;
  const refused = async (query: string, error?: string) => {
    const answer = await get(`/v1/fills?${query}`);
    t.equal(answer.status, 400, query);
    if (error) t.equal(answer.body.error, error);
  };
  await refused(`markets=${markets[0]}&from=0&to=604801`, 'the window is at most 604800 seconds (7 days)');
  await refused(`markets=${markets[0]},${markets[0]}&from=${from}&to=${to}`, FEED_ERRORS.markets);
  await refused(`markets=${markets[0]}, ${markets[1]}&from=${from}&to=${to}`, FEED_ERRORS.markets);
  const hundred = Array.from({ length: 100 }, (_, i) => '0x' + i.toString(16).padStart(64, '0'));
  t.equal(
    (await get(`/v1/fills?markets=${hundred.join(',')}&from=${from}&to=${to}`)).status,
    200,
    '100 markets fit in a URL',
  );
  await refused(`markets=${[...hundred, markets[0]].join(',')}&from=${from}&to=${to}`, FEED_ERRORS.markets);
  await refused(`from=${from}&to=${to}`, FEED_ERRORS.markets);
  await refused(`${base}&limit=50001`, FEED_ERRORS.limit);
  await refused(`${base}&limit=0`, FEED_ERRORS.limit);
  await refused(`${base}&limit=1.5`, FEED_ERRORS.limit);
  await refused(`markets=${markets[0]}&to=${to}`, 'from must be Unix seconds');
  await refused(`markets=${markets[0]}&from=${to}&to=${from}`, FEED_ERRORS.order);
  await refused(`${base}&cursor=yesterday`);
  const unknown = await get(`/v1/fills?markets=0x${'ab'.repeat(32)}&from=${from}&to=${to}`);
  t.same(unknown.body.fills, [], 'a market with no fills: no rows');
});

t.test(
  "default: heat counts the distinct wallets of each event's markets over the window, busiest first",
  async (t) => {
    const answer = await get('/v1/events/heat?window=24h&limit=500');
    t.equal(answer.status, 200);
    t.same(answerProblems(EventHeatAnswer, answer.body), [], 'the answer matches its schema');
    const { events, since } = answer.body;
    t.ok(events.length > 0, `${events.length} events`);
    t.ok(
      events.every((e: any, i: number) => i === 0 || events[i - 1].uniqueTraders >= e.uniqueTraders),
      'busiest first',
    );
    // The busiest event, counted from the trades of its markets (the metadata names each market's event).
    const metadata = JSON.parse(readFileSync(inputs.metadata, 'utf8')) as Array<{
      conditionId: string;
      events?: Array<{ slug: string }>;
    }>;
    const minute = since + 86_400;
    const [top] = events;
    const eventMarkets = metadata
      .filter((m) => m.events?.[0]?.slug === top.eventSlug)
      .map((m) => m.conditionId.toLowerCase());
    const wallets = new Set<string>();
    for (const market of eventMarkets) {
      const answerTrades = await get(`/v1/markets/${market}/trades?limit=1000`);
      if (answerTrades.status !== 200) continue;
      for (const trade of answerTrades.body.trades)
        if (trade.ts >= since && trade.ts < minute) wallets.add(trade.wallet);
    }
    t.equal(top.uniqueTraders, wallets.size, `${top.eventSlug}: distinct wallets of its markets' trades in the window`);
    t.equal(since % 60, 0, 'the window ends on a minute');
    t.equal((await get('/v1/health')).body.rollups.heat, minute, 'health names the minute heat is measured at');
    const short = await get('/v1/events/heat?window=1h&limit=2');
    t.match(short.body, { window: '1h', since: since + 86_400 - 3_600 });
    t.ok(short.body.events.length <= 2, 'limit');
    t.equal((await get('/v1/events/heat?window=2d')).status, 400);
  },
);
