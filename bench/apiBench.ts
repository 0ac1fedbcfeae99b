// `npm run bench:api [-- --seconds S --connections C --rounds R]`: requests/s and p50/p99 latency over loopback for
// positions?status=open of a wallet with about 500 positions and for a wallet-trades page, plain and gzipped,
// each against the same answer bytes served from memory by a bare uWebSockets.js handler in the same run (the
// ceiling); then the same positions answer for many distinct wallets, so that none comes from the answer cache.
// The server runs in its own process; the load generator (bench/loadGenerator.ts) shares the machine's 2 cores
// with it. Each target and its ceiling are warmed up, then measured in R interleaved rounds (medians). The
// per-key limits are lifted in the bench venue's config.json (`"rateLimits": false`; one key, 32 connections).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStateStore } from '../engine/state/openStateStore.js';
import { createStateReader } from '../engine/state/stateReader.js';
import { createLoadGenerator, type Load } from './loadGenerator.js';
import { recordBenchFigures } from './recordBenchFigures.js';
import { BENCH_VENUE_ROOT, benchDemoVenue } from './demoVenue.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string' },
    connections: { type: 'string' },
    rounds: { type: 'string' },
    threads: { type: 'string' },
  },
});
const seconds = Number(values.seconds ?? 5);
const rounds = Number(values.rounds ?? 3);
const connections = Number(values.connections ?? 32);
/** The server's serving threads (`serve --threads`). */
const threads = Number(values.threads ?? 1);
const root = BENCH_VENUE_ROOT;
const { data, key } = benchDemoVenue();
const tally = new URL('../cli/tally.mjs', import.meta.url).pathname;

// One key's 32 connections would stop at 600 requests a minute: the limits are lifted for this venue only.
const config = join(data, 'config.json');
const venueConfig = existsSync(config) ? (JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>) : {};
writeFileSync(config, JSON.stringify({ ...venueConfig, rateLimits: false }, null, 2) + '\n');

// The wallet whose position count is closest to 500.
const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
const counts = new Map<string, number>();
for (const holder of createStateReader(store).positionHolders()) counts.set(holder.wallet, holder.positions);
await store.close();
const [wallet, positions] = [...counts].sort((a, b) => Math.abs(a[1] - 500) - Math.abs(b[1] - 500))[0]!;

function start(command: string[], env: Record<string, string> = {}): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, command, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      if (/ready|serving/.test(chunk.toString())) resolve(child);
    });
    // Before it is ready an exit fails the start; after, it is reported (a server dying mid-run is a finding).
    child.on('exit', (code, signal) => {
      const error = new Error(`${command.join(' ')} exited ${code ?? signal}`);
      if (!child.killed) console.error(error.message);
      reject(error);
    });
  });
}

const generator = createLoadGenerator({ connections, seconds, scratch: root });
const warmUp = createLoadGenerator({ connections, seconds: 5, scratch: root });
console.log(`load generator: ${generator.name}`);

function headersFor(encoding: string | null): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (encoding) headers['accept-encoding'] = encoding;
  return headers;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const medianLoad = (loads: Load[]): Load => ({
  rps: median(loads.map((l) => l.rps)),
  p50: median(loads.map((l) => l.p50)),
  p99: median(loads.map((l) => l.p99)),
});

/**
 * tally and the ceiling, warmed up, then loaded in turn for `rounds` rounds: interleaving spreads this machine's
 * drifts in speed over both, and each figure is the median of its rounds.
 */
async function compare(
  tallyUrl: string,
  ceilingUrl: string,
  encoding: string | null,
): Promise<{ served: Load; ceiling: Load }> {
  const headers = headersFor(encoding);
  await warmUp.load(tallyUrl, headers);
  await warmUp.load(ceilingUrl, headers);
  const served: Load[] = [];
  const ceiling: Load[] = [];
  for (let round = 0; round < rounds; round++) {
    served.push(await generator.load(tallyUrl, headers));
    ceiling.push(await generator.load(ceilingUrl, headers));
  }
  return { served: medianLoad(served), ceiling: medianLoad(ceiling) };
}

/** The answer's bytes as sent (still gzipped when asked for). */
function fetchRaw(url: string, encoding: string | null): Promise<Buffer> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (encoding) headers['accept-encoding'] = encoding;
  return new Promise((resolve, reject) => {
    // A fresh connection: a pooled one may have been closed by the server while idle (uWS closes after 10 s).
    get(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject);
  });
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');
const port = 18_300;
const server = await start([tally, 'serve', '--data', data, '--port', String(port), '--threads', String(threads)]);
const targets = [
  {
    name: `positions?status=open, ${positions} positions`,
    path: `/v1/wallets/${wallet}/positions?status=open&limit=2500`,
  },
  { name: 'wallet trades page (100)', path: `/v1/wallets/${wallet}/trades?limit=100` },
];
const rows: Array<[string, string, string]> = [];
try {
  for (const target of targets) {
    for (const encoding of [null, 'gzip']) {
      const url = `http://127.0.0.1:${port}${target.path}`;
      const bytes = await fetchRaw(url, encoding);
      const file = join(root, 'answer.bin');
      writeFileSync(file, bytes);
      const bare = await start([
        '--import',
        'tsx',
        new URL('./bareServer.ts', import.meta.url).pathname,
        file,
        String(port + 1),
        ...(encoding ? [encoding] : []),
      ]);
      const { served, ceiling } = await compare(url, `http://127.0.0.1:${port + 1}/`, encoding).finally(() =>
        bare.kill(),
      );
      const name = `${target.name}, ${encoding ?? 'plain'} (${count(bytes.length)} bytes)`;
      console.log(
        `${name}: tally ${count(served.rps)} req/s p50 ${served.p50} ms p99 ${served.p99} ms; ` +
          `bare uWS ${count(ceiling.rps)} req/s p50 ${ceiling.p50} ms p99 ${ceiling.p99} ms`,
      );
      rows.push([
        `${name}: req/s`,
        `${count(served.rps)} (ceiling ${count(ceiling.rps)})`,
        `${(served.rps / ceiling.rps).toFixed(2)}x the ceiling (target 0.5x)`,
      ]);
      rows.push([
        `${name}: p50 / p99 ms`,
        `${served.p50} / ${served.p99} (ceiling ${ceiling.p50} / ${ceiling.p99})`,
        'p99 target 5 ms',
      ]);
    }
  }
  // Uncached: the 200 wallets nearest 500 positions in turn, each pass with another limit, so that no answer
  // comes from the cache.
  const nearest = [...counts].sort((a, b) => Math.abs(a[1] - 500) - Math.abs(b[1] - 500)).slice(0, 200);
  const paths = nearest.map(([w]) => `/v1/wallets/${w}/positions?status=open`);
  // The warm-up asks other URLs (offset=0 added), so the measured run finds none of them cached.
  await warmUp.load(
    `http://127.0.0.1:${port}/`,
    headersFor('gzip'),
    paths.map((path) => `${path}&offset=0`),
  );
  const cold = await generator.load(`http://127.0.0.1:${port}/`, headersFor('gzip'), paths);
  const sizes = nearest.map(([, n]) => n).sort((a, b) => a - b);
  const name = `positions?status=open, 200 wallets of ${sizes[0]} to ${sizes.at(-1)} positions, gzip, uncached`;
  console.log(`${name}: tally ${count(cold.rps)} req/s p50 ${cold.p50} ms p99 ${cold.p99} ms`);
  rows.push([`${name}: req/s`, count(cold.rps), 'every answer computed from the state and compressed']);
  rows.push([`${name}: p50 / p99 ms`, `${cold.p50} / ${cold.p99}`, '']);
} finally {
  server.kill();
}
recordBenchFigures(
  `api, ${threads} serving thread(s), ${connections} connections, medians of ${rounds} interleaved ${seconds} s rounds, ${generator.name}`,
  rows,
);
