// The HTTP details a client meets (issue 22, item 7), against the real server on 127.0.0.1: the bearer scheme in
// any letter case, HEAD answered as GET without the body, CORS (preflights and the allow-origin header), the
// OpenAPI document without a key, and no header naming the HTTP library.
import t from 'tap';
import { startServer } from '../../cli/commands/serveCommand.js';
import { busiestMarkets, busiestWallet, createDemoData } from '../fixtures/demoData.js';
import { rawExchange } from '../fixtures/rawHttp.js';

const { data, key } = await createDemoData(4_000, 12);
const wallet = await busiestWallet(data, 'positions');
const [market] = await busiestMarkets(data, 1);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());

interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** One request on its own connection, read raw: the status, the headers (lower-cased names) and the body's bytes. */
async function exchange(method: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    'Host: x',
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  const { text, status } = await rawExchange(server.port, lines.join('\r\n') + '\r\n\r\n');
  const end = text.indexOf('\r\n\r\n');
  const parsed = new Map<string, string>();
  for (const line of text.slice(0, end).split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    parsed.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: status ?? 0, headers: parsed, body: text.slice(end + 4) };
}

const bearer = { Authorization: `Bearer ${key}` };

t.test('behavior: the bearer scheme is matched in any letter case', async (t) => {
  for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
    const answer = await exchange('GET', '/v1/health', { Authorization: `${scheme} ${key}` });
    t.equal(answer.status, 200, scheme);
  }
  t.equal(
    (await exchange('GET', '/v1/health', { Authorization: `Basic ${key}` })).status,
    401,
    'another scheme is refused',
  );
  t.equal(
    (await exchange('GET', '/v1/nope', { Authorization: `bearer ${key}` })).status,
    404,
    'unknown paths take it too',
  );
});

t.test('behavior: HEAD answers as GET, with no body', async (t) => {
  const window = JSON.parse((await exchange('GET', '/v1/health', bearer)).body) as { blockTs: number };
  const fills = `/v1/fills?markets=${market}&from=${window.blockTs - 604_000}&to=${window.blockTs + 1}`;
  const cases: Array<[string, Record<string, string>]> = [
    ['/v1/health', bearer],
    [`/v1/wallets/${wallet}/positions?status=open`, bearer],
    [`/v1/wallets/${wallet}/positions?status=open`, { ...bearer, 'Accept-Encoding': 'gzip' }],
    ['/v1/wallets/tags', bearer],
    ['/v1/leaderboard?limit=500&head=1', { ...bearer, 'Accept-Encoding': 'gzip' }],
    [fills, bearer],
    [fills, { ...bearer, 'Accept-Encoding': 'gzip' }],
    ['/v1/wallets/0x12/positions', bearer],
    ['/v1/health', {}],
    ['/v1/nope', bearer],
    ['/v1/openapi.json', {}],
  ];
  // What may differ: the date, the requests left this minute, and the framing (a stream is chunked).
  const varying = new Set(['date', 'x-ratelimit-remaining', 'content-length', 'transfer-encoding']);
  for (const [path, headers] of cases) {
    const get = await exchange('GET', path, headers);
    const head = await exchange('HEAD', path, headers);
    const name = `${path} ${headers['Accept-Encoding'] ?? ''}`;
    t.equal(head.status, get.status, `${name}: the status (${get.status})`);
    t.equal(head.body, '', `${name}: no body`);
    t.ok(get.body.length > 0, `${name}: the GET has one`);
    const same = (answer: RawAnswer) => [...answer.headers].filter(([header]) => !varying.has(header)).sort();
    t.same(same(head), same(get), `${name}: the same headers`);
    const length = head.headers.get('content-length');
    if (length !== undefined) t.equal(length, get.headers.get('content-length'), `${name}: the GET body's length`);
    else
      t.ok(
        get.headers.get('transfer-encoding') === 'chunked' || get.headers.get('content-encoding') === 'gzip',
        `${name}: no length only when it is not known yet`,
      );
    if (get.headers.get('transfer-encoding') === undefined)
      t.equal(Number(get.headers.get('content-length')), Buffer.byteLength(get.body, 'latin1'));
  }
  // A gzip not made yet is not made for a HEAD: the headers say gzip, and no length.
  const fresh = await exchange('HEAD', `/v1/wallets/${wallet}/positions?status=open&fresh=1`, {
    ...bearer,
    'Accept-Encoding': 'gzip',
  });
  t.same(
    [fresh.status, fresh.headers.get('content-encoding'), fresh.headers.get('content-length'), fresh.body],
    [200, 'gzip', undefined, ''],
  );
});

t.test('behavior: CORS: preflights answered without a key, answers open to any origin', async (t) => {
  for (const path of ['/v1/health', `/v1/wallets/${wallet}/positions`, '/v1/nope']) {
    const preflight = await exchange('OPTIONS', path, {
      Origin: 'https://dashboard.example',
      'Access-Control-Request-Method': 'GET',
      'Access-Control-Request-Headers': 'authorization',
    });
    t.equal(preflight.status, 204, `${path}: 204`);
    t.equal(preflight.body, '');
    t.equal(preflight.headers.get('access-control-allow-origin'), '*');
    t.match(preflight.headers.get('access-control-allow-methods'), /\bGET\b/);
    t.match(preflight.headers.get('access-control-allow-headers'), /\bauthorization\b/i);
    t.match(preflight.headers.get('access-control-max-age'), /^\d+$/);
  }
  const origin = { Origin: 'https://dashboard.example' };
  for (const [path, headers, status] of [
    ['/v1/health', { ...bearer, ...origin }, 200],
    ['/v1/health', origin, 401],
    [`/v1/wallets/${wallet}/trades`, { ...bearer, ...origin, 'Accept-Encoding': 'gzip' }, 200],
    ['/v1/wallets/tags', { ...bearer, ...origin, 'If-None-Match': '*' }, 304],
    ['/v1/nope', { ...bearer, ...origin }, 404],
  ] as const) {
    const answer = await exchange('GET', path, headers);
    t.equal(answer.status, status, `${path}: ${status}`);
    t.equal(answer.headers.get('access-control-allow-origin'), '*', `${path} ${status}: any origin`);
    t.match(
      answer.headers.get('access-control-expose-headers'),
      /X-RateLimit-Remaining/i,
      'the rate headers are readable',
    );
    t.match(answer.headers.get('access-control-expose-headers'), /Retry-After/i);
  }
  const posted = await exchange('POST', '/v1/health', { ...bearer, 'Content-Length': '0' });
  t.same([posted.status, posted.headers.get('allow')], [405, 'GET, HEAD, OPTIONS'], 'other methods are still 405');
});

t.test('behavior: the OpenAPI document needs no key', async (t) => {
  const answer = await exchange('GET', '/v1/openapi.json');
  t.equal(answer.status, 200);
  t.equal(JSON.parse(answer.body).openapi, '3.1.0');
  t.equal(answer.headers.get('x-ratelimit-limit'), undefined, 'not counted against any key');
  t.equal(
    (await exchange('GET', '/v1/openapi.json', { Authorization: 'Bearer nonsense' })).status,
    200,
    'a bad key does not matter',
  );
  t.equal((await exchange('GET', '/v1/health')).status, 401, 'the routes still need one');
});

t.test(
  'behavior: a request that says Connection: close gets Connection: close back, on every kind of answer',
  async (t) => {
    // exchange() sends Connection: close on each request.
    for (const [name, method, path, headers] of [
      ['an answer', 'GET', `/v1/wallets/${wallet}/positions?status=open`, bearer],
      ['a gzipped answer', 'GET', `/v1/wallets/${wallet}/trades`, { ...bearer, 'Accept-Encoding': 'gzip' }],
      ['an error', 'GET', '/v1/health', {}],
      ['a stream', 'GET', `/v1/fills?markets=${market}&from=0&to=604800`, bearer],
      ['a preflight', 'OPTIONS', '/v1/health', {}],
      ['a HEAD', 'HEAD', '/v1/health', bearer],
    ] as const) {
      const answer = await exchange(method, path, headers);
      t.equal(answer.headers.get('connection'), 'close', `${name}: ${answer.status}`);
    }
    const kept = await fetch(`http://127.0.0.1:${server.port}/v1/health`, { headers: bearer });
    t.equal(kept.headers.get('connection'), null, 'a connection kept alive: no Connection header');
  },
);

t.test('behavior: no header names the HTTP library', async (t) => {
  for (const [method, path, headers] of [
    ['GET', '/v1/health', bearer],
    ['GET', '/v1/nope', {}],
    ['OPTIONS', '/v1/health', {}],
  ] as const) {
    const answer = await exchange(method, path, headers);
    t.notOk(
      [...answer.headers.keys()].some((name) => name.toLowerCase() === 'uwebsockets'),
      `${method} ${path}: no uWebSockets header`,
    );
    t.ok(answer.headers.has('date'), 'the Date header stays');
  }
});
