// The wallet position routes over HTTP on a small demo venue: the three forms, paging, filters, errors.
import t from 'tap';
import { join } from 'node:path';
import { startServer } from '../../cli/commands/serveCommand.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { busiestWallet, createDemoData } from '../fixtures/demoData.js';
import { answerProblems } from '../fixtures/checkAnswer.js';
import { ClosedPositionsAnswer, OpenPositionsAnswer, RawPositionsAnswer } from '../../api/schemas/answerSchemas.js';

const { data, key } = await createDemoData(4_000, 12);
// The wallet with the most positions, and its positions as stored.
const wallet = await busiestWallet(data, 'positions');
const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
const reader = createStateReader(store);
const storedWithTokens = reader.walletPositions(wallet)!;
const stored = storedWithTokens.map(({ position }) => position);
// The held read (the open form's: a view decoding from the store's buffer, positions with no shares left out).
const heldRead = reader.walletPositions(wallet, true)!;
// Over a limit of one fewer than it has, each read is refused; at exactly its count, read whole.
const overLimit = [false, true].map((held) => reader.walletPositions(wallet, held, storedWithTokens.length - 1));
const atLimit = reader.walletPositions(wallet, true, storedWithTokens.length);
await store.close();

t.test('unit: the held read is the full read of positions holding shares', async (t) => {
  const expected = storedWithTokens.filter(({ position }) => position.shares > 0);
  t.ok(expected.length > 0 && expected.length < storedWithTokens.length, `some held (${expected.length}), some not`);
  t.same(heldRead, expected);
});

t.test('unit: a wallet over the limit is read as null, counted with the positions it does not hold', async (t) => {
  t.same(overLimit, [null, null], 'one position over: refused, whether all or the held ones are asked for');
  t.same(atLimit, heldRead, 'at the limit: read');
});

const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
// Answers are JSON checked field by field, so their type stays open.
async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    headers: { authorization: `Bearer ${key}`, connection: 'close' },
  });
  return { status: response.status, body: await response.json() };
}

t.test('default: the raw form lists every position with its market, both outcomes each', async (t) => {
  const raw = await get(`/v1/wallets/${wallet}/positions`);
  t.equal(raw.status, 200);
  t.same(answerProblems(RawPositionsAnswer, raw.body), [], 'the answer matches its schema');
  const held = raw.body.positions.filter((p: { firstTradeAt: number }) => p.firstTradeAt > 0);
  t.equal(held.length, stored.length, 'every stored position');
  t.same(
    held.map((p: { shares: number }) => p.shares).sort(),
    stored.map((p) => p.shares / 1e6).sort(),
    'shares in whole units',
  );
  const markets = new Map<string, number[]>();
  for (const p of raw.body.positions)
    markets.set(p.conditionId, [...(markets.get(p.conditionId) ?? []), p.outcomeIndex]);
  t.ok(
    [...markets.values()].every((o) => o.length === 2),
    'both outcomes of each market',
  );
  const one = raw.body.positions[0].conditionId;
  const only = await get(`/v1/wallets/${wallet}/positions?conditions=${one}`);
  t.ok(
    only.body.positions.length === 2 &&
      only.body.positions.every((p: { conditionId: string }) => p.conditionId === one),
  );
});

t.test('behavior: open form sorted by value, paged with no gap or overlap', async (t) => {
  const all = await get(`/v1/wallets/${wallet}/positions?status=open&limit=2500`);
  t.equal(all.status, 200);
  t.same(answerProblems(OpenPositionsAnswer, all.body), [], 'the answer matches its schema');
  t.match(all.body, { wallet, tooLarge: false, maxPositions: 50000, offset: 0, next: null });
  const values = all.body.rows.map((r: { value: number | null }) => r.value ?? -Infinity);
  t.ok(
    values.every((v: number, i: number) => i === 0 || values[i - 1] >= v),
    'biggest value first',
  );
  t.ok(
    all.body.rows.every(
      (r: { open: boolean; resolved: boolean; shares: number }) => r.open || (r.resolved && r.shares > 0),
    ),
  );
  const paged: string[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page: { body: { rows: Array<{ tokenId: string }>; next: number | null } } = await get(
      `/v1/wallets/${wallet}/positions?status=open&limit=2&offset=${offset}`,
    );
    paged.push(...page.body.rows.map((r) => r.tokenId));
    offset = page.body.next;
  }
  t.same(
    paged,
    all.body.rows.map((r: { tokenId: string }) => r.tokenId),
    'pages of 2 give the same rows in the same order',
  );
  const clamped = await get(`/v1/wallets/${wallet}/positions?status=open&limit=0`);
  t.equal(clamped.body.rows.length, Math.min(1, all.body.total), 'limit 0 is clamped to 1');
  const upper = await get(`/v1/wallets/${wallet.toUpperCase().replace('0X', '0x')}/positions?status=open`);
  t.equal(upper.body.wallet, wallet, 'any letter case, answered in lowercase');
});

t.test('behavior: closed form and closed-positions agree; exitAt set', async (t) => {
  const closed = await get(`/v1/wallets/${wallet}/positions?status=closed&limit=2500`);
  const route = await get(`/v1/wallets/${wallet}/closed-positions?limit=2500`);
  t.same(answerProblems(ClosedPositionsAnswer, route.body), [], 'the answer matches its schema');
  t.same(closed.body.rows, route.body.rows);
  t.ok(closed.body.rows.every((r: { exitAt: number | null; open: boolean }) => r.exitAt !== null && !r.open));
  const exits = closed.body.rows.map((r: { exitAt: number }) => r.exitAt);
  t.ok(
    exits.every((e: number, i: number) => i === 0 || exits[i - 1] >= e),
    'latest exit first',
  );
  const byPnl = await get(`/v1/wallets/${wallet}/closed-positions?sort=pnl&limit=2500`);
  const pnl = byPnl.body.rows.map((r: { settledPnl: number }) => r.settledPnl);
  t.ok(
    pnl.every((p: number, i: number) => i === 0 || pnl[i - 1] >= p),
    'best settled PnL first',
  );
});

t.test('error: every bad parameter names itself', async (t) => {
  t.same(await get(`/v1/wallets/${wallet}/positions?status=maybe`), {
    status: 400,
    body: { error: 'status must be open or closed' },
  });
  t.same(await get(`/v1/wallets/${wallet}/positions?status=open&category=astrology`), {
    status: 400,
    body: { error: 'unknown category' },
  });
  t.same(await get('/v1/wallets/0x123/positions'), { status: 400, body: { error: 'wallet must be 0x plus 40 hex' } });
  t.same(await get(`/v1/wallets/${wallet}/positions?status=open&limit=ten`), {
    status: 400,
    body: { error: 'limit must be an integer' },
  });
  t.same(await get(`/v1/wallets/${wallet}/positions?status=open&offset=-1`), {
    status: 400,
    body: { error: 'offset must be an integer, 0 or more' },
  });
  t.same(await get(`/v1/wallets/${wallet}/closed-positions?sort=size`), {
    status: 400,
    body: { error: 'sort must be exit or pnl' },
  });
  t.same(
    await get(`/v1/wallets/${wallet}/positions?status=open&limit=1.5`),
    { status: 400, body: { error: 'limit must be an integer' } },
    'no silent truncation',
  );
  t.same(await get(`/v1/wallets/${wallet}/positions?status=closed&sort=size`), {
    status: 400,
    body: { error: 'sort must be exit or pnl' },
  });
  t.same(await get(`/v1/wallets/${wallet}/positions?conditions=0x12`), {
    status: 400,
    body: { error: 'conditions must be condition ids (0x plus 64 hex), comma separated' },
  });
  t.equal(
    (await get(`/v1/wallets/${wallet}/positions?status=open&limit=&offset=`)).status,
    200,
    'an empty value counts as absent',
  );
  t.equal(
    (await get(`/v1/wallets/${wallet}/positions?status=open&colour=blue`)).status,
    200,
    'unknown parameters are ignored',
  );
  const other = await get(`/v1/wallets/${wallet}/positions?status=open&category=other`);
  t.ok(
    other.body.rows.every(
      (r: { market: { category: string | null } | null }) => !r.market || r.market.category === null,
    ),
  );
});
