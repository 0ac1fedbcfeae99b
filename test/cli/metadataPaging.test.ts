// `tally metadata --url` against a fake Gamma-style market API on 127.0.0.1: offset paging (the real /markets, here
// capping `limit` below what tally asks), cursor paging (`next_cursor`), both ending at an empty page; a failing page
// retried with backoff, each retry told; a server that ignores the paging parameters; and pages refused, named by
// their URL.
import t from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openOffchainStore, readMarketMetadata } from '../../engine/offchain/openOffchainStore.js';
import { PAGE_LIMIT, PAGE_RETRY } from '../../cli/fetchMarketPages.js';
import { expectOneLine } from '../fixtures/expectOneLine.js';
import { runTallyAsync } from '../fixtures/runTally.js';

const dir = mkdtempSync(join(tmpdir(), 'tally-metadata-pages-'));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const conditionId = (i: number) => '0x' + i.toString(16).padStart(64, '0');
const MARKETS = Array.from({ length: 7 }, (_, i) => ({
  conditionId: conditionId(i + 1),
  question: `Question ${i + 1}?`,
  category: 'Sports',
}));
/** The fake /markets answers at most this many a page, whatever `limit` asks. */
const CAP = 3;

const asked: string[] = [];
let flakyFailures = 0;
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url!, 'http://x');
  asked.push(req.url!);
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const limit = Math.min(CAP, Number(url.searchParams.get('limit') ?? 100));
  const send = (status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  switch (url.pathname) {
    case '/markets':
      return send(200, MARKETS.slice(offset, offset + limit));
    case '/cursor': {
      // Two markets a page; the page after the last is empty though it still names a cursor.
      const at = Number(url.searchParams.get('next_cursor') ?? 0);
      return send(200, { data: MARKETS.slice(at, at + 2), next_cursor: String(at + 2), limit: 2 });
    }
    case '/flaky':
      if (offset === CAP && flakyFailures++ < 2) return send(503, { error: 'busy' });
      return send(200, MARKETS.slice(offset, offset + limit));
    case '/static':
      return send(200, MARKETS.slice(0, 2));
    case '/bad':
      return offset === 0 ? send(200, MARKETS.slice(0, CAP)) : send(200, { error: 'no such page' });
    case '/items':
      return send(200, [MARKETS[0], 42]);
    case '/down':
      return send(503, { error: 'down' });
    default:
      return send(404, { error: 'not found' });
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
t.teardown(() => server.close());
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

function dataDir(name: string): string {
  const data = join(dir, name);
  mkdirSync(data);
  return data;
}

async function stored(data: string): Promise<Array<string | null>> {
  const offchain = openOffchainStore({ dir: join(data, 'offchain'), readOnly: true });
  const questions = MARKETS.map((market) => readMarketMetadata(offchain, market.conditionId)?.question ?? null);
  await offchain.close();
  return questions;
}

const allQuestions = MARKETS.map((market) => market.question);

t.test('default: offset paging goes on by the objects received and stops at an empty page', async (t) => {
  const data = dataDir('offset');
  asked.length = 0;
  const result = await runTallyAsync(['metadata', '--data', data, '--url', `${base}/markets`]);
  t.equal(result.code, 0, result.stderr);
  t.same(
    asked,
    [0, 3, 6, 7].map((offset) => `/markets?limit=${PAGE_LIMIT}${offset > 0 ? `&offset=${offset}` : ''}`),
  );
  t.match(result.stderr, new RegExp(`^metadata: 7 markets from ${escape(base)}/markets \\(7 new, 0 changed\\)$`, 'm'));
  t.same(await stored(data), allQuestions);

  const again = await runTallyAsync(['metadata', '--data', data, '--url', `${base}/markets?closed=false&limit=2`]);
  t.equal(again.code, 0, again.stderr);
  t.match(again.stderr, /^metadata: 7 markets from .* \(0 new, 0 changed\)$/m, 'nothing new: nothing written');
  t.equal(asked.at(-1), '/markets?closed=false&limit=2&offset=7', "the URL's own parameters and limit kept");
});

t.test('behavior: cursor paging follows next_cursor and stops at an empty page', async (t) => {
  const data = dataDir('cursor');
  asked.length = 0;
  const result = await runTallyAsync(['metadata', '--data', data, '--url', `${base}/cursor`]);
  t.equal(result.code, 0, result.stderr);
  t.same(asked, [
    `/cursor?limit=${PAGE_LIMIT}`,
    ...[2, 4, 6, 8].map((at) => `/cursor?limit=${PAGE_LIMIT}&next_cursor=${at}`),
  ]);
  t.same(await stored(data), allQuestions);
});

t.test('behavior: a failing page is retried with backoff, each retry told', async (t) => {
  const data = dataDir('flaky');
  const result = await runTallyAsync(['metadata', '--data', data, '--url', `${base}/flaky`]);
  t.equal(result.code, 0, result.stderr);
  const page = `${base}/flaky?limit=${PAGE_LIMIT}&offset=3`;
  const retries = result.stderr.split('\n').filter((line) => line.includes(' failed ('));
  t.equal(retries.length, 2, result.stderr);
  retries.forEach((line, i) => {
    t.match(
      line,
      new RegExp(
        `^metadata: ${escape(page)} failed \\(HTTP 503 Service Unavailable\\): attempt ${i + 1} of ${PAGE_RETRY.retries! + 1}, ` +
          'retrying in \\d+\\.\\d s$',
      ),
    );
  });
  t.same(await stored(data), allQuestions, 'every page loaded in the end');
});

t.test('behavior: a server that ignores the paging parameters is read once', async (t) => {
  const data = dataDir('static');
  asked.length = 0;
  const result = await runTallyAsync(['metadata', '--data', data, '--url', `${base}/static`]);
  t.equal(result.code, 0, result.stderr);
  t.equal(asked.length, 2, 'the second page repeated the first: the end');
  t.same(await stored(data), [...allQuestions.slice(0, 2), null, null, null, null, null]);
});

t.test('error: a page that is not a list of market objects is refused, naming it; nothing is stored', async (t) => {
  for (const [path, pattern] of [
    [
      '/bad',
      `${escape(base)}/bad\\?limit=${PAGE_LIMIT}&offset=3: holds an object with keys error, not a page of market objects`,
    ],
    ['/items', `${escape(base)}/items\\?limit=${PAGE_LIMIT}: item 2 is a number, not a market object$`],
    ['/gone', `cannot fetch ${escape(base)}/gone\\?limit=${PAGE_LIMIT}: HTTP 404 Not Found$`],
  ] as const) {
    const data = dataDir(`refused${path.replace('/', '-')}`);
    const result = await runTallyAsync(['metadata', '--data', data, '--url', `${base}${path}`]);
    t.equal(result.code, 1, path);
    expectOneLine(t, result.stderr, new RegExp(`^tally: ${pattern}`));
    t.same(readdirSync(data), [], 'nothing written');
  }
});

t.test('error: a page still failing after its retries names the page and the attempts', async (t) => {
  const data = dataDir('down');
  const result = await runTallyAsync(['metadata', '--data', data, '--url', `${base}/down`]);
  t.equal(result.code, 1);
  const lines = result.stderr.trimEnd().split('\n');
  t.equal(lines.length, PAGE_RETRY.retries! + 1, 'each retry, then the refusal');
  t.match(
    lines.at(-1),
    new RegExp(
      `^tally: cannot fetch ${escape(base)}/down\\?limit=${PAGE_LIMIT}: HTTP 503 Service Unavailable ` +
        `\\(${PAGE_RETRY.retries! + 1} attempts\\)$`,
    ),
  );
  t.same(readdirSync(data), []);
});
