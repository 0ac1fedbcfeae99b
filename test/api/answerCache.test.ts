// The answer cache: least recently used eviction within a byte budget, emptied by a new generation; and over HTTP,
// a fold commit or a metadata load by another process reaches the very next answer.
import t from 'tap';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createAnswerCache, type CachedAnswer } from '../../api/transport/answerCache.js';
import { startServer } from '../../cli/commands/serveCommand.js';
import { busiestWallet } from '../fixtures/demoData.js';
import { createDemoInputs } from '../fixtures/demoVenue.js';
import { runTally } from '../fixtures/runTally.js';
import { createKey } from '../fixtures/apiKey.js';

const answer = (bytes: number): CachedAnswer => ({ json: Buffer.alloc(bytes) });

t.test('default: a hit returns the cached bytes; a new generation empties the cache', async (t) => {
  const cache = createAnswerCache(1000);
  const a = answer(100);
  cache.set('g1', '/a', a);
  t.equal(cache.get('g1', '/a'), a);
  t.equal(cache.get('g2', '/a'), undefined, 'another generation sees nothing');
  t.equal(cache.get('g1', '/a'), undefined, 'and the old entries are gone');
});

t.test(
  'default: past the budget the least recently served answers go, down to three quarters, gzips counted',
  async (t) => {
    const cache = createAnswerCache(10_000);
    const [a, b, c] = [answer(2000), answer(2000), answer(2000)];
    cache.set('g', '/a', a);
    cache.set('g', '/b', b);
    cache.set('g', '/c', c);
    cache.get('g', '/a');
    cache.setCompressed('g', '/c', c, 'gzip', Buffer.alloc(3000));
    t.equal(cache.get('g', '/c')?.gzip?.length, 3000, 'the gzip is kept with its answer');
    cache.get('g', '/a');
    cache.set('g', '/d', answer(2000));
    t.equal(cache.get('g', '/b'), undefined, 'the least recently served went first');
    t.equal(
      cache.get('g', '/c'),
      undefined,
      'then the next, down to three quarters of the budget (its gzip and URL counted)',
    );
    t.equal(cache.get('g', '/a'), a, 'a recent hit stayed');
    t.ok(cache.get('g', '/d'), 'the new answer stayed');
    cache.set('g', '/huge', answer(4000));
    t.equal(cache.get('g', '/huge'), undefined, 'an answer over a quarter of the budget is not kept');
    cache.setCompressed('g2', '/a', a, 'br', Buffer.alloc(10));
    t.equal(a.br, undefined, 'a compression of an older generation is dropped');
  },
);

// A demo venue folded in two steps while the server runs in this process and the fold in another.
const inputs = await createDemoInputs(3_000, 5);
const lines = readFileSync(inputs.capture, 'utf8').trimEnd().split('\n');
const blockOf = (line: string) => Number(JSON.parse(line).blockNumber);
let cut = Math.floor(lines.length / 2);
while (blockOf(lines[cut]!) === blockOf(lines[cut - 1]!)) cut++;
const firstHalf = join(inputs.dir, 'first.ndjson');
writeFileSync(firstHalf, lines.slice(0, cut).join('\n') + '\n');
const data = join(inputs.dir, 'data');
mkdirSync(data);
copyFileSync(inputs.config, join(data, 'config.json'));
t.equal(runTally(['ingest', '--data', data, '--capture', firstHalf]).code, 0);
const key = await createKey(data);
const wallet = await busiestWallet(data, 'fills');
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());

async function get(path: string, gzip = false): Promise<{ raw: Buffer; body: any; encoding: string | null }> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, connection: 'close' };
  if (gzip) headers['accept-encoding'] = 'gzip';
  // fetch would unpack gzip itself: the bytes as sent are what the test compares.
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers, decompress: false } as RequestInit);
  const raw = Buffer.from(await response.arrayBuffer());
  const encoding = response.headers.get('content-encoding');
  const text = encoding === 'gzip' && raw[0] === 0x1f ? gunzipSync(raw).toString() : raw.toString();
  return { raw, body: JSON.parse(text), encoding };
}

t.test('default: a fold commit by another process reaches the next answer', async (t) => {
  const path = `/v1/wallets/${wallet}/trades?limit=500`;
  const before = await get(path);
  t.same((await get(path)).raw, before.raw, 'the same answer twice at one block');
  const zipped = await get(path, true);
  t.equal(zipped.encoding, 'gzip');
  t.same(zipped.body, before.body, 'its gzip holds the same answer');
  t.equal(runTally(['ingest', '--data', data, '--capture', inputs.capture]).code, 0);
  const after = await get(path);
  t.ok(after.body.block > before.body.block, `the block moved on (${before.body.block} -> ${after.body.block})`);
  t.ok(after.body.trades.length >= before.body.trades.length, 'the newer trades are there');
  t.same((await get(path, true)).body, after.body, 'the gzip of the new answer, not of the old');
});

t.test('default: a metadata load by another process reaches the next answer', async (t) => {
  const path = `/v1/wallets/${wallet}/trades?limit=5`;
  const before = await get(path);
  t.ok(
    before.body.trades.every((trade: { market: { question: string | null } }) => trade.market.question === null),
    'no questions before the load',
  );
  t.equal(runTally(['metadata', '--data', data, '--file', inputs.metadata]).code, 0);
  const after = await get(path);
  t.equal(after.body.block, before.body.block, 'the same block');
  t.ok(
    after.body.trades.every(
      (trade: { market: { question: string | null } }) => typeof trade.market.question === 'string',
    ),
    'questions after it',
  );
});
