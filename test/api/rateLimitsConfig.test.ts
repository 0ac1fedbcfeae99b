// Per-key limits from the data directory's config.json (issue 22, item 9), against the real server on 127.0.0.1:
// a global limit, a key's own limit named by the prefix `tally keys list` shows, a key named whole whose requests
// are not limited, and a malformed setting refused by `tally serve` in one line.
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../cli/commands/serveCommand.js';
import { writeRealCapture } from '../fixtures/realCapture.js';
import { runTally } from '../fixtures/runTally.js';
import { createKeys } from '../fixtures/apiKey.js';
import { createSharedCountersMemory } from '../../api/limits/sharedKeyCounters.js';
import { createRequestMetricsMemory } from '../../api/metrics/requestMetrics.js';

const dir = mkdtempSync(join(tmpdir(), 'tally-limits-'));
const capture = join(dir, 'real.ndjson');
writeRealCapture(capture);
const data = join(dir, 'data');
runTally(['ingest', '--data', data, '--capture', capture]);
const [plain, raised, unlimited] = (await createKeys(data, 3)) as [string, string, string];
const listed = runTally(['keys', 'list', '--data', data]).stdout;
const raisedPrefix = raised.slice(0, 10);
t.ok(listed.includes(`${raisedPrefix}...`), 'the prefix is the one keys list shows');
const config = join(data, 'config.json');
// The real capture's contracts are the Polygon defaults: the config holds nothing else.
const configWith = (rateLimits: unknown) => JSON.stringify({ rateLimits });

async function ask(port: number, key: string, path = '/v1/health') {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as { error?: string } };
}

t.test("behavior: config.json sets the global limit and a key's own", async (t) => {
  writeFileSync(
    config,
    configWith({
      perMinute: 5,
      inFlight: 3,
      streams: 1,
      keys: { [raisedPrefix]: { perMinute: 8 }, [unlimited]: false },
    }),
  );
  const server = await startServer({ data, host: '127.0.0.1', port: 0 });
  t.teardown(() => server.closeAll());
  const statuses = async (key: string, count: number) => {
    const answers = [];
    for (let i = 0; i < count; i++) answers.push(await ask(server.port, key));
    return answers;
  };
  const global = await statuses(plain, 6);
  t.same(
    global.map((a) => a.status),
    [200, 200, 200, 200, 200, 429],
    'the 6th request of a minute is refused',
  );
  t.equal(global[0]!.headers.get('x-ratelimit-limit'), '5');
  t.equal(global[4]!.headers.get('x-ratelimit-remaining'), '0');
  t.match(global[5]!.body.error, /^rate limit: 5 requests a minute; retry in \d+ s$/);
  t.match(global[5]!.headers.get('retry-after'), /^\d+$/);
  const own = await statuses(raised, 9);
  t.same(
    own.map((a) => a.status),
    [...Array(8).fill(200), 429],
    'the key named by its prefix has 8',
  );
  t.equal(own[0]!.headers.get('x-ratelimit-limit'), '8');
  t.match(own[8]!.body.error, /^rate limit: 8 requests a minute/);
  const free = await statuses(unlimited, 20);
  t.ok(
    free.every((a) => a.status === 200),
    'the key named whole is not limited',
  );
  t.equal(free[0]!.headers.get('x-ratelimit-limit'), null, 'and gets no rate headers');
  const doc = await ask(server.port, plain, '/v1/openapi.json');
  t.match(
    JSON.stringify(doc.body),
    /rate limit: 5 requests a minute; retry in N s, or rate limit: at most 3 requests \(1 streams\)/,
    'the OpenAPI document says the limits',
  );
});

t.test('behavior: a key the counters have no room for is refused with 503 and the wait, not a 500', async (t) => {
  writeFileSync(config, configWith({}));
  // One slot in the counters' table: the first key takes it for a minute.
  const thread = { counters: createSharedCountersMemory(1, 600), metrics: createRequestMetricsMemory() };
  const server = await startServer({ data, host: '127.0.0.1', port: 0, thread });
  t.teardown(() => server.closeAll());
  t.equal((await ask(server.port, plain)).status, 200, 'the first key is counted');
  const refused = await ask(server.port, raised);
  t.equal(refused.status, 503);
  t.match(refused.body.error, /^too many keys active in the last minute to count another; retry in \d+ s$/);
  const wait = Number(refused.headers.get('retry-after'));
  t.ok(wait >= 59 && wait <= 60, `Retry-After: when the first key's minute ends (${wait} s)`);
  t.equal((await ask(server.port, plain)).status, 200, 'the counted key is still answered');
  const doc = await ask(server.port, plain, '/v1/openapi.json');
  t.match(JSON.stringify(doc.body), /too many keys active in the last minute to count another; retry in N s/);
});

t.test('behavior: "rateLimits": false lifts every limit', async (t) => {
  writeFileSync(config, configWith(false));
  const server = await startServer({ data, host: '127.0.0.1', port: 0 });
  t.teardown(() => server.closeAll());
  const answers = [];
  for (let i = 0; i < 700; i++) answers.push((await ask(server.port, plain)).status);
  t.ok(
    answers.every((status) => status === 200),
    'more than 600 requests in a minute',
  );
});

t.test('error: a malformed setting stops serve in one line naming the file', async (t) => {
  for (const [rateLimits, text] of [
    [{ perMinute: 0 }, 'rateLimits.perMinute must be an integer from 1 to 100000'],
    [{ inFlight: 2, streams: 3 }, 'rateLimits.streams must not exceed its inFlight (2)'],
    [{ keys: { abc: { perMinute: 5 } } }, 'rateLimits.keys: abc is not a key prefix'],
    [{ perMinit: 5 }, 'rateLimits: unknown field perMinit'],
    ['many', 'rateLimits must be an object or false'],
  ] as const) {
    writeFileSync(config, configWith(rateLimits));
    const result = runTally(['serve', '--data', data, '--port', '0']);
    t.equal(result.code, 1, JSON.stringify(rateLimits));
    t.equal(result.stderr.trim().split('\n').length, 1, 'one line');
    t.ok(result.stderr.startsWith(`tally: ${config}: ${text}`), result.stderr);
  }
});
