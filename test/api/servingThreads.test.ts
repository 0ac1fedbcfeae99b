// `serve --threads N` (issue 26, item 1) against the real server on 127.0.0.1: two threads answer the same bytes
// as one; a key's minute is counted exactly whichever thread takes each request; a revoked key is refused on the
// next request by every thread; /metrics counts every thread's requests; a port in use is refused as with one
// thread; and the threads end on close.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../cli/commands/serveCommand.js';
import { revokeApiKey } from '../../engine/offchain/apiKeys.js';
import { openOffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { createKey } from '../fixtures/apiKey.js';
import { busiestWallet, createDemoData } from '../fixtures/demoData.js';

const { data, key } = await createDemoData(4_000, 12);
const wallet = await busiestWallet(data, 'positions');
// A small minute, so that its end is reached quickly: the exactness is the same at 600.
const PER_MINUTE = 40;
const config = join(data, 'config.json');
writeFileSync(
  config,
  JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), rateLimits: { perMinute: PER_MINUTE } }),
);
const single = await startServer({ data, host: '127.0.0.1', port: 0 });
const threaded = await startServer({ data, host: '127.0.0.1', port: 0, threads: 2 });
t.teardown(async () => {
  await single.closeAll();
  await threaded.closeAll();
});

/** Each request on its own connection, so the kernel spreads them over the threads. */
const get = async (port: number, path: string, apiKey = key) => {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    headers: { authorization: `Bearer ${apiKey}`, connection: 'close' },
  });
  return { status: response.status, text: await response.text() };
};

t.test('default: two threads answer the same bytes as one', async (t) => {
  const other = await createKey(data);
  for (const path of [
    '/v1/health',
    `/v1/wallets/${wallet}/positions?status=open&limit=50`,
    `/v1/wallets/${wallet}/trades?limit=50`,
    '/v1/leaderboard?limit=20&sort=volume',
  ]) {
    const one = await get(single.port, path, other);
    const two = await get(threaded.port, path, other);
    t.equal(two.status, 200, path);
    if (path === '/v1/health') t.equal(JSON.parse(two.text).block, JSON.parse(one.text).block, 'health: the block');
    else t.equal(two.text, one.text, `${path}: the same bytes`);
  }
});

t.test("behavior: a key's minute is exact across threads: the request past it is refused", async (t) => {
  const fresh = await createKey(data);
  const statuses = await Promise.all(
    Array.from({ length: PER_MINUTE + 10 }, async (_, i) => {
      // At most 4 in flight per key: the requests go in waves of 4.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(i / 4) * 15));
      return (await get(threaded.port, '/v1/health', fresh)).status;
    }),
  );
  const ok = statuses.filter((status) => status === 200).length;
  const limited = statuses.filter((status) => status === 429).length;
  t.equal(ok, PER_MINUTE, `exactly ${PER_MINUTE} allowed of ${statuses.length}`);
  t.equal(limited, 10, 'the rest refused with 429');
  const past = await fetch(`http://127.0.0.1:${threaded.port}/v1/health`, {
    headers: { authorization: `Bearer ${fresh}`, connection: 'close' },
  });
  t.equal(past.status, 429);
  t.match(await past.json(), { error: new RegExp(`^rate limit: ${PER_MINUTE} requests a minute`) });
});

t.test('behavior: a revoked key is refused on the next request by every thread', async (t) => {
  const doomed = await createKey(data);
  for (let i = 0; i < 6; i++) t.equal((await get(threaded.port, '/v1/health', doomed)).status, 200);
  const offchain = openOffchainStore({ dir: join(data, 'offchain') });
  await revokeApiKey(offchain, doomed, Math.floor(Date.now() / 1000));
  await offchain.close();
  const after = await Promise.all(Array.from({ length: 12 }, () => get(threaded.port, '/v1/health', doomed)));
  t.same(
    after.map((answer) => answer.status),
    Array(12).fill(401),
    'every request after the revocation, whichever thread took it',
  );
});

t.test("behavior: /metrics counts every thread's requests, whichever thread answers it", async (t) => {
  const heatRequests = async () => {
    const text = (await get(threaded.port, '/metrics')).text;
    const line = text
      .split('\n')
      .find((l) => l.startsWith('tally_http_requests_total{route="/v1/events/heat",status="200"}'));
    return line === undefined ? 0 : Number(line.split(' ').at(-1));
  };
  for (let round = 0; round < 3; round++) {
    // A key of its own each round: the minute here is 40 requests.
    const roundKey = await createKey(data);
    const before = await heatRequests();
    for (let i = 0; i < 20; i++) t.equal((await get(threaded.port, '/v1/events/heat', roundKey)).status, 200);
    t.equal((await heatRequests()) - before, 20, `round ${round}: the 20 requests, all threads' together`);
  }
});

t.test('error: a port in use is refused as with one thread', async (t) => {
  await t.rejects(
    startServer({ data, host: '127.0.0.1', port: threaded.port, threads: 2 }),
    new RegExp(`cannot listen on 127\\.0\\.0\\.1:${threaded.port}: the port is in use`),
  );
  await t.rejects(
    startServer({ data, host: '127.0.0.1', port: single.port, threads: 2 }),
    /the port is in use/,
    'a single-thread server holds its port alone',
  );
});
