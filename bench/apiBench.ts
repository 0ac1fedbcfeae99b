// `npm run bench:api [-- --seconds S --connections C --rounds R --threads T --wrk-threads W]`: requests/s and p50/p99
// latency over loopback for positions?status=open of a wallet with about 500 positions and for a wallet-trades page,
// plain, gzipped and in brotli, each against the same answer bytes served from memory by a bare uWebSockets.js handler
// in the same run (the ceiling); then uncached answers (the open positions of 200 wallets, the traders of 100 busy
// markets), in gzip and in brotli, with the server's CPU per answer; then another key's /v1/health alone, beside heavy
// leaderboards (custom windows) and beside pulls of the fills feed.
// The server runs in its own process; the load generator (bench/loadGenerator.ts) shares the machine's 2 cores
// with it. Each target and its ceiling are warmed up, then measured in R interleaved rounds (medians). The
// per-key limits are lifted in the bench venue's config.json (`"rateLimits": false`; one key, 32 connections).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStateStore } from '../engine/state/openStateStore.js';
import { createStateReader } from '../engine/state/stateReader.js';
import { createLoadGenerator, type Load } from './loadGenerator.js';
import { liftKeyLimits } from './liftKeyLimits.js';
import { recordBenchFigures } from './recordBenchFigures.js';
import { pullFillsPage } from './pullFillsPage.js';
import { busiestMarkets } from '../test/fixtures/demoData.js';
import { BENCH_VENUE_ROOT, benchDemoVenue } from './demoVenue.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string' },
    connections: { type: 'string' },
    rounds: { type: 'string' },
    threads: { type: 'string' },
    'wrk-threads': { type: 'string' },
  },
});
const seconds = Number(values.seconds ?? 5);
const rounds = Number(values.rounds ?? 3);
const connections = Number(values.connections ?? 32);
/** The server's serving threads (`serve --threads`). */
const threads = Number(values.threads ?? 1);
/** wrk's threads for each load (at most one a connection: a one-connection load keeps one). */
const wrkThreads = Number(values['wrk-threads'] ?? 1);
const root = BENCH_VENUE_ROOT;
const { data, key } = benchDemoVenue();
const tally = new URL('../cli/tally.mjs', import.meta.url).pathname;

// One key's 32 connections would stop at 600 requests a minute: the limits are lifted for this venue only.
liftKeyLimits(data);

// The wallet whose position count is closest to 500.
const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
const counts = new Map<string, number>();
for (const holder of createStateReader(store).positionHolders()) counts.set(holder.wallet, holder.positions);
await store.close();
const [wallet, positions] = [...counts].sort((a, b) => Math.abs(a[1] - 500) - Math.abs(b[1] - 500))[0]!;

// The 100 markets with the most fills.
const busyMarkets = await busiestMarkets(data, 100);

/** A process's CPU seconds so far, every thread (user + system, /proc/PID/stat, 100 ticks a second). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * One key keeping 4 leaderboard requests in flight (its in-flight limit), each over a window not asked before (so
 * none is cached anywhere); stop() answers each one's milliseconds.
 */
function startHeavyBoards(port: number, apiKey: string, round: number) {
  let stopped = false;
  let asked = 0;
  const times: number[] = [];
  const loop = async () => {
    while (!stopped) {
      const from = 1_600_000_000 + round * 1_000_000 + asked++ * 60;
      const started = performance.now();
      // A fresh connection each (as fetchRaw): a pooled one may have been closed by the server while idle, and a
      // request sent on it just then fails ("other side closed", seen here once in a run).
      const status = await new Promise<number>((resolve, reject) => {
        get(
          `http://127.0.0.1:${port}/v1/leaderboard?from=${from}&limit=100`,
          { headers: { authorization: `Bearer ${apiKey}`, 'accept-encoding': 'gzip' }, agent: false },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode!));
          },
        ).on('error', reject);
      });
      if (status !== 200) throw new Error(`heavy board: ${status}`);
      times.push(performance.now() - started);
    }
  };
  const loops = Array.from({ length: 4 }, loop);
  return {
    async stop(): Promise<number[]> {
      stopped = true;
      await Promise.all(loops);
      return times;
    },
  };
}

/**
 * One key pulling the fills feed on its 2 streams (its stream limit): pages of up to 50,000 rows of `markets` over
 * the week before `endTs`, each followed by its `next` until the last, then again from the first; stop() answers
 * the rows pulled.
 */
function startFillsPulls(port: number, apiKey: string, markets: string[], endTs: number) {
  let stopped = false;
  let rows = 0;
  const path = `/v1/fills?markets=${markets.join(',')}&from=${endTs - 604_800}&to=${endTs}&limit=50000`;
  const loop = async () => {
    let cursor: string | null = null;
    while (!stopped) {
      const page = await pullFillsPage(port, apiKey, cursor ? `${path}&cursor=${cursor}` : path);
      rows += page.rows;
      cursor = page.next;
    }
  };
  const loops = Array.from({ length: 2 }, loop);
  return {
    async stop(): Promise<number> {
      stopped = true;
      await Promise.all(loops);
      return rows;
    },
  };
}

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

const generator = createLoadGenerator({ connections, seconds, scratch: root, threads: wrkThreads });
const warmUp = createLoadGenerator({ connections, seconds: 5, scratch: root, threads: wrkThreads });
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

/** The answer's bytes as sent (still compressed when asked for). */
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
    for (const encoding of [null, 'gzip', 'br']) {
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
  // Uncached: the 200 wallets nearest 500 positions in turn, then the traders of the 100 markets with the most
  // fills, each pass with another limit, so that no answer comes from the cache. The warm-up asks other URLs
  // (offset=0 added), so the measured run finds none of them cached.
  const nearest = [...counts].sort((a, b) => Math.abs(a[1] - 500) - Math.abs(b[1] - 500)).slice(0, 200);
  const sizes = nearest.map(([, n]) => n).sort((a, b) => a - b);
  const uncached = [
    {
      name: `positions?status=open, 200 wallets of ${sizes[0]} to ${sizes.at(-1)} positions`,
      cycle: { paths: nearest.map(([w]) => `/v1/wallets/${w}/positions?status=open`), maxLimit: 2500 },
    },
    {
      name: 'market traders, the 100 markets with the most fills',
      cycle: { paths: busyMarkets.map((market) => `/v1/markets/${market}/traders?sort=total`), maxLimit: 1000 },
    },
  ];
  for (const { name, cycle } of uncached) {
    // Each coding's pass asks URLs of its own (the cache keys answers by URL, whatever the coding).
    for (const coding of ['gzip', 'br']) {
      const paths = cycle.paths.map((path) => `${path}&coding=${coding}`);
      await warmUp.load(`http://127.0.0.1:${port}/`, headersFor(coding), {
        ...cycle,
        paths: paths.map((path) => `${path}&offset=0`),
      });
      const cpuBefore = cpuSeconds(server.pid!);
      const cold = await generator.load(`http://127.0.0.1:${port}/`, headersFor(coding), { ...cycle, paths });
      const cpuMicros = ((cpuSeconds(server.pid!) - cpuBefore) * 1e6) / (cold.rps * seconds);
      const line = `${name}, ${coding}, uncached`;
      console.log(
        `${line}: tally ${count(cold.rps)} req/s p50 ${cold.p50} ms p99 ${cold.p99} ms, ${count(cpuMicros)} µs server CPU per answer`,
      );
      rows.push([`${line}: req/s`, count(cold.rps), 'every answer computed from the state and compressed']);
      rows.push([`${line}: p50 / p99 ms`, `${cold.p50} / ${cold.p99}`, '']);
      rows.push([`${line}: server CPU µs per answer`, count(cpuMicros), 'all threads, compression included']);
    }
  }

  // A cheap request (another key's /v1/health, one connection: a dashboard polling, not a load that saturates the
  // cores by itself) alone, then while one key keeps 4 leaderboard requests over windows never asked before in
  // flight (each sums every wallet's market results).
  const otherKey = spawnSync(process.execPath, [tally, 'keys', 'create', '--data', data], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .at(-1)!;
  const cheapLoad = createLoadGenerator({ connections: 1, seconds, scratch: root, threads: wrkThreads });
  const cheapUrl = `http://127.0.0.1:${port}/v1/health`;
  const cheapHeaders = { authorization: `Bearer ${otherKey}` };
  await warmUp.load(cheapUrl, cheapHeaders);
  const alone: Load[] = [];
  const beside: Load[] = [];
  let heavyAnswers = 0;
  let heavyMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    alone.push(await cheapLoad.load(cheapUrl, cheapHeaders));
    const heavy = startHeavyBoards(port, key, round);
    beside.push(await cheapLoad.load(cheapUrl, cheapHeaders));
    const done = await heavy.stop();
    heavyAnswers += done.length;
    heavyMs = heavyMs.concat(done);
  }
  // The same cheap request while the key pulls the fills feed of the 100 busiest markets on its 2 streams.
  const health = (await (await fetch(cheapUrl, { headers: cheapHeaders })).json()) as { blockTs: number };
  const besideFills: Load[] = [];
  let pulledRows = 0;
  for (let round = 0; round < rounds; round++) {
    const pulls = startFillsPulls(port, key, busyMarkets, health.blockTs + 1);
    besideFills.push(await cheapLoad.load(cheapUrl, cheapHeaders));
    pulledRows += await pulls.stop();
  }
  const cheapBesideFills = medianLoad(besideFills);
  console.log(
    `cheap request beside fills pulls: ${count(cheapBesideFills.rps)} req/s p50 ${cheapBesideFills.p50} ms p99 ${cheapBesideFills.p99} ms (${count(pulledRows)} rows pulled)`,
  );
  const cheapAlone = medianLoad(alone);
  const cheapBeside = medianLoad(beside);
  const heavyMedian = heavyMs.length > 0 ? median(heavyMs) : 0;
  console.log(
    `cheap request alone: ${count(cheapAlone.rps)} req/s p50 ${cheapAlone.p50} ms p99 ${cheapAlone.p99} ms; beside heavy boards: ${count(cheapBeside.rps)} req/s p50 ${cheapBeside.p50} ms p99 ${cheapBeside.p99} ms (${heavyAnswers} heavy answers, median ${heavyMedian.toFixed(0)} ms)`,
  );
  rows.push([
    '/v1/health (1 connection), alone: p50 / p99 ms',
    `${cheapAlone.p50} / ${cheapAlone.p99}`,
    `${count(cheapAlone.rps)} req/s`,
  ]);
  rows.push([
    '/v1/health (1 connection), while another key keeps 4 custom-window leaderboards in flight: p50 / p99 ms',
    `${cheapBeside.p50} / ${cheapBeside.p99}`,
    `p99 target 5 ms; ${count(cheapBeside.rps)} req/s; ${heavyAnswers} leaderboards answered, median ${heavyMedian.toFixed(0)} ms`,
  ]);
  rows.push([
    '/v1/health (1 connection), while another key pulls the fills feed of the 100 busiest markets on 2 streams: p50 / p99 ms',
    `${cheapBesideFills.p50} / ${cheapBesideFills.p99}`,
    `p99 target 5 ms; ${count(cheapBesideFills.rps)} req/s; ${count(pulledRows / (rounds * seconds))} rows/s pulled`,
  ]);
} finally {
  server.kill();
}
recordBenchFigures(
  `api, ${threads} serving thread(s), ${connections} connections, medians of ${rounds} interleaved ${seconds} s rounds, ${generator.name}`,
  rows,
);
