// `tally serve --access-log` (issue 22, item 9) through the real CLI: one line per request on stdout, with the
// time, client, request, status, milliseconds and the key's prefix (never the key); no line without the flag.
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeRealCapture } from '../fixtures/realCapture.js';
import { runTally } from '../fixtures/runTally.js';
import { createKey } from '../fixtures/apiKey.js';

const dir = mkdtempSync(join(tmpdir(), 'tally-access-'));
const capture = join(dir, 'real.ndjson');
writeRealCapture(capture);
const data = join(dir, 'data');
runTally(['ingest', '--data', data, '--capture', capture]);
const key = await createKey(data);
const BIN = fileURLToPath(new URL('../../cli/tally.mjs', import.meta.url));

/** Serves with `flags`, sends the requests, stops the server; answers its stdout lines after the serving line. */
async function serveAndAsk(
  flags: string[],
  requests: Array<{ path: string; method?: string; key?: string }>,
): Promise<string[]> {
  const child = spawn(process.execPath, [BIN, 'serve', '--data', data, '--port', '0', ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let base: string | undefined;
  for (let waited = 0; !base; waited += 50) {
    if (waited > 60_000) throw new Error(`serve did not start: ${stdout}${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    base = /on (http:\/\/\S+)\/v1/.exec(stdout)?.[1];
  }
  for (const request of requests) {
    const headers: Record<string, string> = request.key ? { authorization: `Bearer ${request.key}` } : {};
    await (await fetch(base + request.path, { method: request.method ?? 'GET', headers })).arrayBuffer();
  }
  child.kill('SIGTERM');
  if ((await exited) !== 0) throw new Error(`serve exited badly: ${stderr}`);
  return stdout.trim().split('\n').slice(1);
}

const requests = [
  { path: '/v1/health', key },
  { path: '/v1/health?x="quoted"', key: 'svc_' + '0'.repeat(48) },
  { path: '/v1/openapi.json' },
  { path: '/v1/health', method: 'HEAD', key },
  { path: '/metrics' },
];

t.test('default: no access log without the flag', async (t) => {
  t.same(await serveAndAsk([], requests), []);
});

t.test('behavior: --access-log writes a line per request', async (t) => {
  const lines = await serveAndAsk(['--access-log'], requests);
  t.equal(lines.length, requests.length, lines.join('\n'));
  const pattern =
    /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) 127\.0\.0\.1 ("(?:[^"\\]|\\.)*") (\d{3}) (\d+\.\d\d)ms (\S+)$/;
  const parsed = lines.map((line) => pattern.exec(line));
  t.ok(
    parsed.every((match) => match !== null),
    'every line in the format',
  );
  t.same(
    parsed.map((match) => [JSON.parse(match![2]!), Number(match![3]), match![5]]),
    [
      ['GET /v1/health', 200, key.slice(0, 10)],
      ['GET /v1/health?x=%22quoted%22', 401, '-'],
      ['GET /v1/openapi.json', 200, '-'],
      ['HEAD /v1/health', 200, key.slice(0, 10)],
      ['GET /metrics', 200, '-'],
    ],
  );
  t.notOk(
    lines.some((line) => line.includes(key)),
    'the key itself is never written',
  );
});
