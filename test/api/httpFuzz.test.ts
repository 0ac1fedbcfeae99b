// A seeded fuzz of the HTTP front over loopback: a few thousand requests with random methods, paths, queries,
// headers and bodies, each on a raw socket (nothing normalized by a client). No answer is a 5xx, every error
// body is { "error": text }, and the server is healthy at the end. Requests go unanswered only in the shapes the
// library itself refuses (listed in rawRequests.test.ts): here, methods it does not know.
import t from 'tap';
import { startServer } from '../../cli/commands/serveCommand.js';
import { busiestWallet, createDemoData } from '../fixtures/demoData.js';
import { rawBody, rawExchange } from '../fixtures/rawHttp.js';
import { createKeys } from '../fixtures/apiKey.js';

const SEED = 20261124;
const REQUESTS = 3000;
const CONNECTIONS = 4;
/** The methods uWebSockets.js parses; any other closes the connection unanswered. */
const KNOWN_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'CONNECT', 'TRACE'];

const { data, key } = await createDemoData(100, 4);
const wallet = await busiestWallet(data, 'positions');
// Several keys, so that most requests get past the minute's 600 and reach the routes.
const keys = [key, ...(await createKeys(data, 5))];
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());

/** mulberry32: a small, fast, seeded generator. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(SEED);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const chance = (p: number) => random() < p;
const hex = (n: number) => Array.from({ length: n }, () => pick('0123456789abcdefABCDEF'.split(''))).join('');
/** Printable ASCII without space (the request line's URI), percent-escapes among them. */
function junk(max: number): string {
  const length = Math.floor(random() * max);
  let text = '';
  for (let i = 0; i < length; i++)
    text += chance(0.1) ? '%' + hex(2) : String.fromCharCode(33 + Math.floor(random() * 94));
  return text;
}

const WALLETS = () =>
  pick([wallet, '0x' + hex(40), '0x' + hex(39), 'abc', '0X' + hex(40), '0x' + hex(40) + 'ff', '', junk(50)]);
const PATHS = [
  () => '/v1/health',
  () => '/v1/openapi.json',
  () => `/v1/wallets/${WALLETS()}/positions`,
  () => `/v1/wallets/${WALLETS()}/closed-positions`,
  () => `/v1/wallets/${WALLETS()}/trades`,
  () => '/v1/' + junk(40),
  () => '/' + junk(80),
  () => '/v1/wallets/' + junk(60),
  () => '/v1//health',
  () => '/v1/health/',
  () => '/' + 'a'.repeat(Math.floor(random() * 6000)),
];
const PARAMS = ['status', 'limit', 'offset', 'category', 'q', 'conditions', 'sort', 'before', 'market', junk(8)];
const VALUES = [
  () => String(Math.floor(random() * 5000) - 100),
  () => pick(['open', 'closed', 'OPEN', 'raw', '']),
  () => pick(['exit', 'pnl', 'x']),
  () => pick(['sports', 'Crypto', 'other', 'politics', 'nope']),
  () => '0x' + hex(64),
  () => `0x${hex(64)},0x${hex(64)}`,
  () => `${Math.floor(random() * 2e9)},${Math.floor(random() * 1e8)},${Math.floor(random() * 100)}`,
  () => junk(30),
  () => '9'.repeat(30),
  () => '-0',
  () => '1e3',
  () => '%00',
  () => '%F0%9F%92%A9',
];
function query(): string {
  if (chance(0.3)) return '';
  const parts = Array.from(
    { length: 1 + Math.floor(random() * 4) },
    () => `${pick(PARAMS)}${chance(0.9) ? '=' + pick(VALUES)() : ''}`,
  );
  return '?' + parts.join(chance(0.9) ? '&' : ';');
}

interface Sent {
  request: string;
  method: string;
}

function request(): Sent {
  const method = chance(0.8) ? 'GET' : chance(0.85) ? pick(KNOWN_METHODS) : pick(['FOO', 'get', 'BREW', 'G3T']);
  const lines = [`${method} ${pick(PATHS)()}${query()} HTTP/1.1`, 'Host: ' + pick(['x', '127.0.0.1', junk(20) || 'y'])];
  const auth = random();
  if (auth < 0.75) lines.push(`Authorization: Bearer ${pick(keys)}`);
  else if (auth < 0.85)
    lines.push(`Authorization: ${pick(['Bearer', 'Basic', 'bearer', ''])} ${pick(['svc_' + hex(48), junk(30)])}`);
  if (chance(0.3))
    lines.push('Accept-Encoding: ' + pick(['gzip', 'gzip;q=0', 'br', '*', 'gzip, deflate, br', 'x;q=oops', '']));
  if (chance(0.1))
    lines.push(`X-${junk(10).replace(/[^A-Za-z0-9-]/g, '') || 'Pad'}: ${junk(chance(0.1) ? 9000 : 100)}`);
  let body = '';
  if (chance(0.05)) {
    body = junk(200);
    lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  }
  lines.push('Connection: close');
  return { request: lines.join('\r\n') + '\r\n\r\n' + body, method };
}

t.test('behavior: thousands of random requests, no 5xx, every error a JSON { error }', async (t) => {
  const requests = Array.from({ length: REQUESTS }, request);
  const statuses = new Map<number | string, number>();
  const problems: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < requests.length) {
        const { request: text, method } = requests[next++]!;
        const exchange = await rawExchange(server.port, text, 15_000);
        const label = exchange.status ?? (exchange.text === '' ? 'closed' : 'garbled');
        statuses.set(label, (statuses.get(label) ?? 0) + 1);
        const first = text.slice(0, text.indexOf('\r\n')).slice(0, 120);
        if (exchange.status === null) {
          if (KNOWN_METHODS.includes(method)) problems.push(`unanswered: ${first}`);
          continue;
        }
        if (exchange.status >= 500) problems.push(`${exchange.status}: ${first}`);
        if (exchange.status >= 400 && method !== 'HEAD') {
          let body: unknown;
          try {
            body = rawBody(exchange.text);
          } catch {
            body = undefined;
          }
          const error = (body as { error?: unknown } | undefined)?.error;
          if (typeof error !== 'string' || Object.keys(body as object).length !== 1)
            problems.push(`error body not { error }: ${first}`);
        }
      }
    }),
  );
  t.comment(`statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
  t.same(problems.slice(0, 20), [], 'no 5xx, no bad error body, no unanswered well-formed request');
  t.ok((statuses.get(200) ?? 0) > REQUESTS / 10, 'many reached a route and were answered');
  const health = await rawExchange(
    server.port,
    `GET /v1/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${keys[0]}\r\nConnection: close\r\n\r\n`,
  );
  t.equal(health.status, 200, 'healthy at the end');
});
