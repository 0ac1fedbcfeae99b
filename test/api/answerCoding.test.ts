// Answers over HTTP in the coding the client prefers (api/transport/contentCoding.ts): brotli when named, gzip
// otherwise, each holding the same JSON as the plain answer, from the cache as when first made, for answers made
// on the serving thread and on the heavy-work thread; the fills feed stays gzip (spec 4.9).
import t from 'tap';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { busiestMarkets, busiestWallet, createDemoData } from '../fixtures/demoData.js';
import { startServer } from '../../cli/commands/serveCommand.js';

const { data, key } = await createDemoData(4_000, 12);
const wallet = await busiestWallet(data, 'positions');
const [market] = await busiestMarkets(data, 1);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());

interface Raw {
  status: number;
  encoding: string | null;
  vary: string | null;
  length: string | null;
  bytes: Buffer;
}

/** The answer as sent: node:http, which unpacks nothing. */
function raw(path: string, acceptEncoding: string | null, method = 'GET'): Promise<Raw> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (acceptEncoding !== null) headers['accept-encoding'] = acceptEncoding;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          encoding: res.headers['content-encoding'] ?? null,
          vary: (res.headers.vary as string | undefined) ?? null,
          length: res.headers['content-length'] ?? null,
          bytes: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(answer: Raw): string {
  if (answer.encoding === 'br') return brotliDecompressSync(answer.bytes).toString();
  if (answer.encoding === 'gzip') return gunzipSync(answer.bytes).toString();
  return answer.bytes.toString();
}

t.test('default: brotli when named, gzip when only gzip, the same JSON in each, the cache serving each', async (t) => {
  for (const [name, path] of [
    ['open positions', `/v1/wallets/${wallet}/positions?status=open&limit=500`],
    ['market traders', `/v1/markets/${market}/traders?limit=200`],
    // A custom window: made on the heavy-work thread, compressed there.
    ['windowed leaderboard', '/v1/leaderboard?from=1&to=4000000000&limit=200'],
  ] as const) {
    const plain = await raw(path, null);
    t.equal(plain.status, 200, name);
    t.ok(plain.bytes.length >= 1024, `${name}: big enough to compress (${plain.bytes.length} bytes)`);
    t.equal(plain.encoding, null);
    t.equal(plain.vary, 'Accept-Encoding', `${name}: Vary on the plain form too`);
    for (const accept of ['gzip, deflate, br', 'br', 'gzip;q=0.5, br;q=0.9']) {
      for (const round of ['made', 'cached']) {
        const answer = await raw(path, accept);
        t.equal(answer.encoding, 'br', `${name}, ${accept}, ${round}`);
        t.equal(answer.vary, 'Accept-Encoding');
        t.equal(decoded(answer), plain.bytes.toString(), `${name}, ${accept}, ${round}: the same JSON`);
        t.ok(answer.bytes.length < plain.bytes.length / 2, `${name}: compressed (${answer.bytes.length} bytes)`);
      }
    }
    for (const accept of ['gzip', 'gzip, deflate', 'br;q=0, gzip', '*']) {
      const answer = await raw(path, accept);
      t.equal(answer.encoding, 'gzip', `${name}, ${accept}`);
      t.equal(decoded(answer), plain.bytes.toString(), `${name}, ${accept}: the same JSON`);
    }
    for (const accept of ['identity', 'br;q=0', 'deflate']) {
      const answer = await raw(path, accept);
      t.equal(answer.encoding, null, `${name}, ${accept}: plain`);
      t.same(answer.bytes, plain.bytes);
    }
  }
});

t.test('default: HEAD in brotli names the coding, with the length once the brotli is made', async (t) => {
  const path = `/v1/wallets/${wallet}/positions?status=open&limit=400`;
  const first = await raw(path, 'br', 'HEAD');
  t.equal(first.status, 200);
  t.equal(first.encoding, 'br');
  t.equal(first.length, null, 'a HEAD makes no compression: no length');
  t.equal(first.bytes.length, 0);
  const get = await raw(path, 'br');
  const second = await raw(path, 'br', 'HEAD');
  t.equal(second.length, String(get.bytes.length), 'the cached brotli gives the length');
});

t.test('behavior: the fills feed is gzipped when gzip is taken, brotli or not (spec 4.9)', async (t) => {
  const last = JSON.parse((await raw(`/v1/markets/${market}/trades?limit=1`, null)).bytes.toString());
  const to = last.trades[0].ts + 1;
  const path = `/v1/fills?markets=${market}&from=${to - 604_800}&to=${to}&limit=100`;
  const plain = await raw(path, null);
  t.equal(plain.status, 200);
  const rows = JSON.parse(plain.bytes.toString()).fills.length;
  t.ok(rows > 0, `fills in the window (${rows})`);
  const zipped = await raw(path, 'gzip, deflate, br');
  t.equal(zipped.encoding, 'gzip');
  t.equal(decoded(zipped), plain.bytes.toString());
  const brOnly = await raw(path, 'br');
  t.equal(brOnly.encoding, null, 'brotli alone: plain');
  t.equal(decoded(brOnly), plain.bytes.toString());
});
