// `tally capture` against a real node (ganache with the venue's contracts, test/fixtures/localChain.ts) behind a
// small JSON-RPC proxy on 127.0.0.1 that strips blockTimestamp from eth_getLogs answers and records every request:
// the capture folds to the state an RPC ingest of the same blocks folds to, its block times come from the headers
// (each asked for once, in batches), and a capture without block times is told how to get them.
import t from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectOneLine } from '../fixtures/expectOneLine.js';
import { startLocalChain } from '../fixtures/localChain.js';
import { runTallyAsync } from '../fixtures/runTally.js';
import { stateDigest } from '../../engine/state/stateDigest.js';
import { emitVenueScenario } from '../fixtures/venueScenario.js';
import { isSourceRecord } from '../fixtures/sourceRecords.js';

interface RpcRequest {
  method: string;
  params: unknown[];
}

/** One HTTP request the proxy passed on: its JSON-RPC requests (several for a batch). */
type Post = RpcRequest[];

const chain = await startLocalChain();
t.teardown(() => chain.close());
const scenario = await emitVenueScenario(chain);
const root = mkdtempSync(join(tmpdir(), 'tally-capture-'));
const head = parseInt(await chain.rpc<string>('eth_blockNumber'), 16);

const posts: Post[] = [];
let stripped = 0;
const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
  let body = '';
  req
    .setEncoding('utf8')
    .on('data', (chunk: string) => (body += chunk))
    .on('end', async () => {
      const parsed = JSON.parse(body) as RpcRequest | RpcRequest[];
      const requests = Array.isArray(parsed) ? parsed : [parsed];
      posts.push(requests.map(({ method, params }) => ({ method, params })));
      const answer = await fetch(chain.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const json = (await answer.json()) as { result?: unknown } | Array<{ result?: unknown }>;
      const answers = Array.isArray(json) ? json : [json];
      answers.forEach((one, i) => {
        if (requests[i]?.method !== 'eth_getLogs' || !Array.isArray(one.result)) return;
        for (const log of one.result as Array<Record<string, unknown>>) {
          if ('blockTimestamp' in log) delete log.blockTimestamp;
          stripped++;
        }
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
t.teardown(() => proxy.close());
const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

function dataDir(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ addresses: scenario.config }));
  return dir;
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, string>);
const config = dataDir('config');

const rpcData = dataDir('rpc');
const rpcIngest = await runTallyAsync(['ingest', '--data', rpcData, '--rpc', chain.url]);
if (rpcIngest.code !== 0) throw new Error(rpcIngest.stderr);
const rpcDigest = await stateDigest(join(rpcData, 'state'), isSourceRecord);

t.test('default: a capture of a node that omits blockTimestamp folds to the state of an RPC ingest', async (t) => {
  const file = join(root, 'whole.ndjson');
  posts.length = 0;
  const capture = await runTallyAsync([
    'capture',
    '--data',
    config,
    '--rpc',
    proxyUrl,
    '--from-block',
    '0',
    '--out',
    file,
  ]);
  t.equal(capture.code, 0, capture.stderr);
  t.ok(stripped > 0, "the node's logs reached tally without blockTimestamp");
  const written = lines(file);
  t.match(
    capture.stderr,
    new RegExp(`capture: logs ${written.length}, blocks \\d+, read through block ${head}, file `),
  );

  const data = dataDir('whole');
  const ingest = await runTallyAsync(['ingest', '--data', data, '--capture', file]);
  t.equal(ingest.code, 0, ingest.stderr);
  t.equal(await stateDigest(join(data, 'state'), isSourceRecord), rpcDigest, 'the same state, byte for byte');

  const blocks = [...new Set(written.map((line) => line.blockNumber!))];
  t.ok(blocks.length >= scenario.eventBlocks.length, `${blocks.length} blocks`);
  for (const block of blocks) {
    const header = await chain.rpc<{ timestamp: string }>('eth_getBlockByNumber', [block, false]);
    const times = new Set(written.filter((line) => line.blockNumber === block).map((line) => line.blockTimestamp));
    t.same([...times], [header.timestamp], `block ${parseInt(block, 16)}: its header's time`);
  }
  // Headers of numbered blocks: each block once, many to a request. The head's came with the finalized tag's
  // answer and is not asked for again.
  const headerPosts = posts.filter((post) =>
    post.some((r) => r.method === 'eth_getBlockByNumber' && String(r.params[0]).startsWith('0x')),
  );
  const asked = headerPosts.flatMap((post) => post.map((r) => String(r.params[0])));
  t.equal(new Set(asked).size, asked.length, 'no block asked for twice');
  t.same(
    [...asked].sort(),
    blocks.filter((block) => parseInt(block, 16) !== head).sort(),
    'every other block with logs asked for',
  );
  const ranges = posts.filter((post) => post.some((r) => r.method === 'eth_getLogs')).length / 2;
  t.ok(
    headerPosts.length <= ranges,
    `${headerPosts.length} batched header requests for ${blocks.length} blocks in ${ranges} ranges`,
  );
  t.ok(
    headerPosts.every((post) => post.length > 1 || blocks.length === 1),
    'sent as JSON-RPC batches',
  );
});

t.test('behavior: two captures split at a block, ingested in turn, fold to the same state', async (t) => {
  const middle = scenario.eventBlocks[Math.floor(scenario.eventBlocks.length / 2)]!;
  const first = join(root, 'first.ndjson');
  const second = join(root, 'second.ndjson');
  const a = await runTallyAsync([
    'capture',
    '--data',
    config,
    '--rpc',
    proxyUrl,
    '--from-block',
    '0',
    '--to-block',
    String(middle),
    '--out',
    first,
  ]);
  t.equal(a.code, 0, a.stderr);
  t.match(a.stderr, new RegExp(`read through block ${middle}\\b`));
  t.equal(
    Math.max(...lines(first).map((line) => parseInt(line.blockNumber!, 16))),
    middle,
    'through --to-block, inclusive',
  );
  const b = await runTallyAsync([
    'capture',
    '--data',
    config,
    '--rpc',
    chain.url,
    '--from-block',
    String(middle + 1),
    '--out',
    second,
  ]);
  t.equal(b.code, 0, b.stderr);
  t.equal(
    Math.min(...lines(second).map((line) => parseInt(line.blockNumber!, 16))),
    scenario.eventBlocks.find((n) => n > middle),
  );

  const data = dataDir('split');
  for (const file of [first, second]) {
    const ingest = await runTallyAsync(['ingest', '--data', data, '--capture', file]);
    t.equal(ingest.code, 0, ingest.stderr);
  }
  t.equal(await stateDigest(join(data, 'state'), isSourceRecord), rpcDigest);
});

t.test('error: a capture without blockTimestamp is told, at its line, how to get one', async (t) => {
  const bare = join(root, 'bare.ndjson');
  const whole = lines(join(root, 'whole.ndjson'));
  writeFileSync(bare, whole.map(({ blockTimestamp: _, ...log }) => JSON.stringify(log)).join('\n') + '\n');
  const data = dataDir('bare');
  const ingest = await runTallyAsync(['ingest', '--data', data, '--capture', bare]);
  t.equal(ingest.code, 1);
  expectOneLine(
    t,
    ingest.stderr,
    new RegExp(
      `^tally: ${bare.replace(/\./g, '\\.')}:1: malformed log line: blockTimestamp is missing .*` +
        'tally capture --rpc URL --from-block A --to-block B --out FILE.* or ingest from the node with tally ingest --rpc URL$',
    ),
  );
});

t.test('error: blocks past the finalized head, an existing file and a reversed range are refused', async (t) => {
  const late = join(root, 'late.ndjson');
  const past = await runTallyAsync([
    'capture',
    '--data',
    config,
    '--rpc',
    chain.url,
    '--to-block',
    String(head + 5),
    '--out',
    late,
  ]);
  t.equal(past.code, 1);
  expectOneLine(
    t,
    past.stderr,
    new RegExp(`^tally: --to-block ${head + 5} is past the node's last final block, ${head}: `),
  );
  t.notOk(existsSync(late), 'no file left behind');

  const existing = join(root, 'whole.ndjson');
  const before = readFileSync(existing, 'utf8');
  const again = await runTallyAsync(['capture', '--data', config, '--rpc', chain.url, '--out', existing]);
  t.equal(again.code, 1);
  expectOneLine(t, again.stderr, /^tally: --out .*whole\.ndjson exists: capture writes a new file/);
  t.equal(readFileSync(existing, 'utf8'), before, 'untouched');

  const reversed = await runTallyAsync([
    'capture',
    '--rpc',
    chain.url,
    '--from-block',
    '9',
    '--to-block',
    '3',
    '--out',
    late,
  ]);
  t.equal(reversed.code, 2);
  expectOneLine(t, reversed.stderr, /^tally: --to-block must be an integer 9 or more, got 3$/);
});
