// GET /v1/wallets/{wallet}/trades over HTTP on a small demo venue: cursor paging, market filter, search, errors.
import t from 'tap';
import { startServer } from '../../cli/commands/serveCommand.js';
import { busiestWallet, createDemoData } from '../fixtures/demoData.js';
import { answerProblems } from '../fixtures/checkAnswer.js';
import { WalletTradesAnswer } from '../../api/schemas/answerSchemas.js';

const { data, key } = await createDemoData(4_000, 12);
// The busiest trader: the most (wallet, block) trade entries.
const wallet = await busiestWallet(data, 'fills');

const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
// Answers are JSON checked field by field, so their type stays open.
async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    headers: { authorization: `Bearer ${key}`, connection: 'close' },
  });
  return { status: response.status, body: await response.json() };
}
const order = (trade: { ts: number; block: number; logIndex: number }) => [trade.ts, trade.block, trade.logIndex];
const before = (a: number[], b: number[]) =>
  a[0]! < b[0]! || (a[0] === b[0] && (a[1]! < b[1]! || (a[1] === b[1] && a[2]! < b[2]!)));

t.test('default: every trade of the wallet, newest first, paged with no gap and no overlap', async (t) => {
  const all = await get(`/v1/wallets/${wallet}/trades?limit=500`);
  t.equal(all.status, 200);
  t.same(answerProblems(WalletTradesAnswer, all.body), [], 'the answer matches its schema');
  t.match(all.body, { wallet, complete: true, truncated: false });
  const trades = all.body.trades;
  t.ok(trades.length > 10, `${trades.length} trades`);
  t.ok(trades.every((x: { wallet: string }) => x.wallet === wallet));
  t.ok(
    trades.every((x: any, i: number) => i === 0 || before(order(x), order(trades[i - 1]))),
    'strictly newest first',
  );
  const paged: string[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const page: { body: { trades: any[]; next: string | null } } = await get(
      `/v1/wallets/${wallet}/trades?limit=7${cursor ? `&before=${cursor}` : ''}`,
    );
    paged.push(...page.body.trades.map((x) => `${x.tx}:${x.logIndex}`));
    cursor = page.body.next;
  }
  t.same(
    paged.slice(0, trades.length),
    trades.map((x: any) => `${x.tx}:${x.logIndex}`),
    'pages of 7 give the same trades',
  );
  t.equal(new Set(paged).size, paged.length, 'no trade twice');
  if (trades.length < 500) t.equal(paged.length, trades.length, 'and no more');
  else t.ok(paged.length >= trades.length, `paging reaches past one 500-row answer (${paged.length})`);
});

t.test('behavior: market filter and search', async (t) => {
  const all = (await get(`/v1/wallets/${wallet}/trades?limit=500`)).body.trades;
  const market = all[0].conditionId;
  const one = await get(`/v1/wallets/${wallet}/trades?market=${market.toUpperCase().replace('0X', '0x')}&limit=500`);
  t.equal(one.body.market, market, 'echoed, lowercase');
  t.same(
    one.body.trades.map((x: any) => x.logIndex + ':' + x.tx),
    all.filter((x: any) => x.conditionId === market).map((x: any) => x.logIndex + ':' + x.tx),
  );
  const word = all[0].market.question.split(' ').find((w: string) => w.length > 4);
  const found = await get(`/v1/wallets/${wallet}/trades?q=${encodeURIComponent(word)}`);
  t.same(answerProblems(WalletTradesAnswer, found.body), [], 'the search answer matches its schema');
  t.ok(
    found.body.trades.length > 0 &&
      found.body.trades.every(
        (x: any) =>
          x.market.question.toLowerCase().includes(word.toLowerCase()) ||
          x.market.outcome.toLowerCase().includes(word.toLowerCase()),
      ),
  );
  t.match(found.body, {
    next: null,
    query: word,
    returned: found.body.trades.length,
    moreMatched: Boolean,
    limit: 300,
  });
});

t.test('error: bad market and cursor name themselves', async (t) => {
  t.same(await get(`/v1/wallets/${wallet}/trades?market=xyz`), {
    status: 400,
    body: { error: 'market must be a condition id' },
  });
  t.same(await get(`/v1/wallets/${wallet}/trades?before=yesterday`), {
    status: 400,
    body: { error: 'before must be a cursor ts,block,logIndex' },
  });
  t.same(await get(`/v1/wallets/0xzz/trades`), { status: 400, body: { error: 'wallet must be 0x plus 40 hex' } });
  t.equal(
    (await get(`/v1/wallets/${wallet}/trades?q=a&market=xyz&before=yesterday`)).status,
    200,
    'a search ignores market and cursor, unchecked',
  );
});
