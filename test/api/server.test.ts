// The real server on 127.0.0.1 over HTTP: keys, error texts and statuses, headers, limits.
import t from 'tap';
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../cli/commands/serveCommand.js';
import { writeRealCapture } from '../fixtures/realCapture.js';
import { runTally } from '../fixtures/runTally.js';
import { answerProblems } from '../fixtures/checkAnswer.js';
import { HealthAnswer } from '../../api/schemas/answerSchemas.js';
import { createKey } from '../fixtures/apiKey.js';

const dir = mkdtempSync(join(tmpdir(), 'tally-api-'));
const capture = join(dir, 'real.ndjson');
writeRealCapture(capture);
const data = join(dir, 'data');
runTally(['ingest', '--data', data, '--capture', capture]);
const key = await createKey(data);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const base = `http://127.0.0.1:${server.port}`;

async function get(
  path: string,
  init: { key?: string | null; method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const headers: Record<string, string> = { connection: 'close', ...init.headers };
  const auth = init.key === undefined ? key : init.key;
  if (auth) headers.authorization = `Bearer ${auth}`;
  const response = await fetch(base + path, { method: init.method ?? 'GET', headers, body: init.body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

t.test('default: health answers with the folded block and the rate headers', async (t) => {
  const r = await get('/v1/health');
  t.equal(r.status, 200);
  t.match(r.body, { status: 'ok', block: 90840326, log: { events: Number } });
  t.same(answerProblems(HealthAnswer, r.body), [], 'the answer matches its schema');
  const doc = await get('/v1/openapi.json');
  t.equal(doc.body.openapi, '3.1.0');
  t.ok(
    doc.body.paths['/v1/wallets/{wallet}/positions'].get.parameters.some((p: { name: string }) => p.name === 'status'),
    'the document lists the routes and their parameters',
  );
  t.equal(r.headers.get('x-ratelimit-limit'), '600');
  t.match(r.headers.get('x-ratelimit-remaining'), /^\d+$/);
  t.match(r.headers.get('content-type'), /application\/json/);
});

t.test('error: missing, unknown, malformed and revoked keys get the spec text', async (t) => {
  for (const bad of [null, 'svc_' + '0'.repeat(48), 'abc']) {
    const r = await get('/v1/health', { key: bad });
    t.same([r.status, r.body], [401, { error: 'unknown or revoked API key' }], `key ${bad}`);
    // The spec gives every 401 the same text; the challenge tells a missing key from a refused one.
    t.equal(
      r.headers.get('www-authenticate'),
      bad === null
        ? 'Bearer realm="tally", error_description="missing API key"'
        : 'Bearer realm="tally", error="invalid_token", error_description="unknown or revoked API key"',
    );
  }
  const second = runTally(['keys', 'create', '--data', data]).stdout.trim().split('\n').at(-1)!;
  t.equal((await get('/v1/health', { key: second })).status, 200);
  runTally(['keys', 'revoke', second, '--data', data]);
  t.same((await get('/v1/health', { key: second })).status, 401, 'a revoked key is refused at once');
  t.same((await get('/v1/nope', { key: second })).status, 401, 'and on unknown routes too (404 is for valid keys)');
  // A key made for another replica, stored here too: taken at once; stored again, it stays revoked.
  const elsewhere = 'svc_' + 'ab'.repeat(24);
  t.equal((await get('/v1/health', { key: elsewhere })).status, 401);
  t.equal(runTally(['keys', 'add', elsewhere, '--data', data]).stdout, 'added svc_ababab...\n');
  t.equal((await get('/v1/health', { key: elsewhere })).status, 200, 'a key added is taken at once');
  t.equal(runTally(['keys', 'add', second, '--data', data]).stdout, `already held: ${second.slice(0, 10)}...\n`);
  t.equal((await get('/v1/health', { key: second })).status, 401, 'adding a revoked key does not restore it');
  t.match(runTally(['keys', 'add', 'svc_12', '--data', data]), { code: 2, stderr: /keys add needs a whole key/ });
});

t.test('error: routes, methods, bodies, URLs', async (t) => {
  t.same(await get('/v1/nope').then((r) => [r.status, r.body]), [404, { error: 'not found' }]);
  t.same(await get('/v1/health', { method: 'POST', body: '{}' }).then((r) => [r.status, r.body]), [
    405,
    { error: 'only GET is supported' },
  ]);
  const deleted = await get('/v1/health', { method: 'DELETE' });
  t.same([deleted.status, deleted.headers.get('allow')], [405, 'GET, HEAD, OPTIONS']);
  const long = await get('/v1/health?x=' + 'a'.repeat(17_000));
  t.same([long.status, long.body], [414, { error: 'the URL is too long (at most 16384 characters)' }]);
  const heavy = await get('/v1/health', { headers: { 'x-padding': 'a'.repeat(9000) } });
  t.same([heavy.status, heavy.body], [431, { error: 'the request headers are too large (at most 8192 bytes)' }]);
  t.equal((await get('/v1/nope', { headers: { 'x-padding': 'a'.repeat(9000) } })).status, 431, 'on unknown routes too');
  t.equal((await get('/v1/' + 'a'.repeat(17_000))).status, 414, 'a long URL on an unknown route too');
});

t.test('behavior: the 601st request in a minute meets 429 with Retry-After', async (t) => {
  const fresh = await createKey(data);
  let limited = null;
  for (let i = 0; i < 601 && !limited; i++) {
    const r = await get('/v1/health', { key: fresh });
    if (r.status === 429) limited = { ...r, at: i + 1 };
  }
  t.ok(limited, 'a 429 came');
  t.equal(limited?.at, 601, 'at the 601st request');
  t.match(limited?.body.error, /^rate limit: 600 requests a minute; retry in \d+ s$/);
  t.match(limited?.headers.get('retry-after'), /^\d+$/);
  t.equal((await get('/v1/health')).status, 200, 'other keys are not affected');
});

t.test('behavior: a burst of more than 4 requests in flight on one key meets 429', async (t) => {
  const fresh = await createKey(data);
  // Twelve connections first, then every request written in one tick: the server takes them all in one pass,
  // and each leaderboard over a window holds its slot until the heavy-work thread has answered it.
  const sockets = await Promise.all(
    Array.from(
      { length: 12 },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
        }),
    ),
  );
  const answers = sockets.map(
    (socket) =>
      new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk.toString('latin1');
        });
        socket.on('close', () => resolve(text));
      }),
  );
  // A query of its own keeps the answer out of what earlier tests cached.
  for (const socket of sockets) {
    socket.write(
      `GET /v1/leaderboard?from=1&limit=500&burst=1 HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${fresh}\r\nconnection: close\r\n\r\n`,
    );
  }
  const texts = await Promise.all(answers);
  const statuses = texts.map((text) => Number(text.slice(9, 12)));
  t.ok(statuses.filter((s) => s === 200).length >= 1, `some were answered (${statuses.join(' ')})`);
  t.ok(statuses.filter((s) => s === 200).length <= 4, 'never more than 4 at once');
  const refused = texts.filter((text) => text.startsWith('HTTP/1.1 429'));
  t.ok(refused.length >= 1, 'the rest met 429');
  for (const text of refused) {
    t.match(text, /\r\nretry-after: 1\r\n/i);
    t.match(text, /\{"error":"rate limit: at most 4 requests \(2 streams\) at once per key; retry in 1 s"\}$/);
  }
  const after = await get('/v1/leaderboard?limit=500', { key: fresh });
  t.equal(after.status, 200, 'the slots come back once answered');
  const answered = statuses.filter((s) => s === 200).length;
  t.equal(
    after.headers.get('x-ratelimit-remaining'),
    String(600 - answered - 1),
    'the refused ones did not count against the minute',
  );
});

t.test('behavior: compressed only when accepted with a weight above 0; Vary on answers that may be', async (t) => {
  const plain = await get('/v1/openapi.json?vary=1', { headers: { 'accept-encoding': 'gzip;q=0' } });
  t.equal(plain.headers.get('content-encoding'), null, 'gzip;q=0 is a refusal');
  t.equal(plain.headers.get('vary'), 'Accept-Encoding');
  for (const accept of ['gzip', 'br;q=0.5, gzip;q=1', '*']) {
    const raw = await fetch(base + '/v1/openapi.json?vary=1', {
      headers: { authorization: `Bearer ${key}`, 'accept-encoding': accept },
    });
    t.equal(raw.headers.get('content-encoding'), 'gzip', accept);
    t.equal(raw.headers.get('vary'), 'Accept-Encoding');
    await raw.arrayBuffer();
  }
  // Brotli when named at least as high as gzip (test/api/answerCoding.test.ts has the rest).
  const brotli = await fetch(base + '/v1/openapi.json?vary=1', {
    headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'br;q=1, gzip;q=0.5' },
  });
  t.equal(brotli.headers.get('content-encoding'), 'br');
  t.equal(((await brotli.json()) as { openapi: string }).openapi, '3.1.0', 'fetch reads it');
  const small = await get('/v1/health', { headers: { 'accept-encoding': 'gzip' } });
  t.equal(small.headers.get('vary'), null, 'a small answer is never gzipped: no Vary');
});

t.test('default: the OpenAPI document lists every error status the server gives', async (t) => {
  const doc = (await get('/v1/openapi.json')).body;
  const responses = doc.paths['/v1/wallets/{wallet}/positions'].get.responses;
  // 503 while the state catches up (api/README.md, Catching up).
  t.same(Object.keys(responses).sort(), ['200', '400', '401', '405', '414', '429', '431', '503']);
  t.match(doc.paths['/v1/wallets/{wallet}/positions'].get.summary, /ignores limit, offset, category and q/);
});
