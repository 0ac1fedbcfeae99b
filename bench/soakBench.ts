// `npm run bench:soak [-- --minutes M --pace P]`: `tally run` following `tally devnet` for M minutes (default 10)
// at P times the venue's pace (default 10), under a steady load, not a saturating one: wrk asking a cheap route
// (another key's /v1/health, one connection, 100 requests a second: dashboards polling) and uncached ones (the open
// positions of 200 wallets, each request another limit so no answer repeats, 2 connections, 100 a second), while a
// client pulls the fills feed on its two streams as fast as it is answered. Each minute: the run's RSS (every
// thread, the state's mapped pages included: the median of a reading every 5 s), a serving thread's heap, the p99 of
// each load, the 5xx and errors, and the fold's lag behind the devnet's finalized head. It ends with a verdict
// against the soak's targets (RSS over the last 3 minutes grows < 5%, cheap p99 < 5 ms every minute, no 5xx, lag
// < 10 blocks at the end) and writes the figures into bench/README.md.
//
// The 200k bench venue (bench/.cache/api/venue) is the chain: the devnet serves its capture with the head six hours
// of chain time before the end, and the run starts from a state folded through that block (bench/.cache/soak,
// made once), so it follows from its first second rather than backfilling.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { openStateStore } from '../engine/state/openStateStore.js';
import { createStateReader } from '../engine/state/stateReader.js';
import { isStateLayoutCurrent } from '../engine/state/stateLayout.js';
import { loadFoldOptions } from '../engine/foldOptions.js';
import { BENCH_VENUE_ROOT, benchDemoVenue } from './demoVenue.js';
import { parseWrkReport } from './loadGenerator.js';
import { pullFillsPage } from './pullFillsPage.js';
import { liftKeyLimits } from './liftKeyLimits.js';
import { recordBenchFigures } from './recordBenchFigures.js';
import { busiestMarkets } from '../test/fixtures/demoData.js';

const { values } = parseArgs({ options: { minutes: { type: 'string' }, pace: { type: 'string' } } });
const minutes = Number(values.minutes ?? 10);
const pace = Number(values.pace ?? 10);
const tally = new URL('../cli/tally.mjs', import.meta.url).pathname;
const HOLD_SECONDS = 6 * 3_600;

const { data: venue } = benchDemoVenue();
const capture = join(venue, 'demo', 'capture.ndjson');
const soakRoot = join(BENCH_VENUE_ROOT, '..', 'soak');

/** The capture's block and time of each line, read as text (no JSON parse of 866,055 lines). */
async function* captureBlocks(): AsyncGenerator<{ line: string; block: number; ts: number }> {
  for await (const line of createInterface({ input: createReadStream(capture), crlfDelay: Infinity })) {
    const block = parseInt(/"blockNumber":"(0x[0-9a-f]+)"/.exec(line)![1]!, 16);
    const ts = parseInt(/"blockTimestamp":"(0x[0-9a-f]+)"/.exec(line)![1]!, 16);
    yield { line, block, ts };
  }
}

/** The state folded through the block HOLD_SECONDS before the capture's end, made once; the block it ends at. */
/** A state prepared by an older layout would be folded again by `run`, a backfill in the soak's first minutes. */
async function preparedLayoutCurrent(dir: string): Promise<boolean> {
  const store = openStateStore({ dir: join(dir, 'state'), readOnly: true });
  try {
    return isStateLayoutCurrent(store, loadFoldOptions(join(dir, 'config.json')));
  } finally {
    await store.close();
  }
}

async function preparedState(): Promise<{ dir: string; startBlock: number }> {
  let lastTs = 0;
  for await (const { ts } of captureBlocks()) lastTs = ts;
  const dir = join(soakRoot, 'prepared');
  const prefix = join(soakRoot, 'prefix.ndjson');
  let startBlock = 0;
  if (!existsSync(join(dir, 'state')) || !(await preparedLayoutCurrent(dir))) {
    rmSync(soakRoot, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    cpSync(join(venue, 'config.json'), join(dir, 'config.json'));
    const out = createWriteStream(prefix);
    for await (const { line, block, ts } of captureBlocks()) {
      if (ts > lastTs - HOLD_SECONDS) break;
      startBlock = block;
      if (!out.write(line + '\n')) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve) => out.end(() => resolve()));
    console.log(`soak: folding the capture through block ${startBlock} (once)`);
    const ingest = spawnSync(
      process.execPath,
      [tally, 'ingest', '--data', dir, '--capture', prefix, '--metadata', join(venue, 'demo', 'markets.json')],
      { stdio: 'inherit' },
    );
    if (ingest.status !== 0) throw new Error('soak: the prefix ingest failed');
    rmSync(prefix);
  }
  const store = openStateStore({ dir: join(dir, 'state'), readOnly: true });
  startBlock = createStateReader(store).cursor().block;
  await store.close();
  return { dir, startBlock };
}

/** A child `tally` process and the first match of `pattern` in its stdout. */
function start(args: string[], pattern: RegExp): Promise<{ child: ChildProcess; match: string }> {
  return new Promise((resolve, reject) => {
    // Its progress lines go to a log beside the run, not between the minutes' figures.
    const log = openSync(join(soakRoot, `${args[0]}.log`), 'w');
    const child = spawn(process.execPath, [tally, ...args], { stdio: ['ignore', 'pipe', log] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const match = pattern.exec(out)?.[1];
      if (match) resolve({ child, match });
    });
    child.once('exit', (code) => reject(new Error(`tally ${args[0]} exited ${code} before it served: ${out}`)));
  });
}

interface WrkMinute {
  p99: number;
  rps: number;
  non2xx: number;
  errors: number;
}

/**
 * wrk for a minute through `script` (its requests and the delay before each, which sets the rate), its non-2xx
 * answers and socket errors counted instead of failing the run.
 */
function wrkMinute(url: string, key: string, connections: number, script: string): Promise<WrkMinute> {
  const args = ['-t1', `-c${connections}`, '-d60s', '--latency', '-H', `authorization: Bearer ${key}`, '-s', script];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', [...args, url]);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    child.on('error', reject);
    child.on('close', () => {
      const { rps, p99 } = parseWrkReport(out);
      const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
      const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
      const errors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
      resolve({ p99, rps, non2xx, errors });
    });
  });
}

/** The process's resident memory, and of it the anonymous part (heaps, LMDB's dirty pages: what a leak grows). */
function rss(pid: number): { total: number; anon: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kB = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]) * 1024;
  return { total: kB('VmRSS'), anon: kB('RssAnon') };
}

const RSS_SAMPLE_MS = 5_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function json<T>(url: string, key: string): Promise<T> {
  return (await (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).json()) as T;
}

const prepared = await preparedState();
const runDir = join(soakRoot, `run-${pace}x`);
rmSync(runDir, { recursive: true, force: true });
cpSync(prepared.dir, runDir, { recursive: true });
// The loads ask 100 requests a second on a key, past a key's 600 a minute.
liftKeyLimits(runDir);
const devnet = await start(
  ['devnet', '--data', venue, '--port', '0', '--pace', String(pace), '--start-block', String(prepared.startBlock)],
  /serving chain 137 at (http:\/\/\S+)/,
);
const run = await start(['run', '--rpc', devnet.match, '--data', runDir, '--port', '0'], /on (http:\/\/\S+)\/v1/);
const base = run.match;
const port = Number(new URL(base).port);
const keyOf = () =>
  spawnSync(process.execPath, [tally, 'keys', 'create', '--data', runDir], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .at(-1)!;
const [cheapKey, loadKey, feedKey] = [keyOf(), keyOf(), keyOf()];

const store = openStateStore({ dir: join(runDir, 'state'), readOnly: true });
const state = createStateReader(store);
const wallets = [...state.positionHolders()]
  .sort((a, b) => Math.abs(a.positions - 100) - Math.abs(b.positions - 100))
  .slice(0, 200)
  .map(({ wallet }) => wallet);
await store.close();
const markets = await busiestMarkets(runDir, 20);
// wrk's delay() is the wait before each request of a connection: 10 ms on one connection, 20 ms on each of two.
const cheapScript = join(soakRoot, 'cheap.lua');
writeFileSync(cheapScript, 'delay = function() return 10 end\n');
const uncachedScript = join(soakRoot, 'uncached.lua');
writeFileSync(
  uncachedScript,
  [
    `local paths = { ${wallets.map((w) => JSON.stringify(`/v1/wallets/${w}/positions?status=open`)).join(', ')} }`,
    'local i = 0',
    'request = function()',
    '  i = i + 1',
    '  return wrk.format("GET", paths[(i % #paths) + 1] .. "&limit=" .. (2500 - math.floor(i / #paths) % 2500))',
    'end',
    'delay = function() return 20 end',
  ].join('\n'),
);

// A client of the fills feed as a quant's sync runs it: the week before the prepared state's last block pulled
// whole, page by page, then every 5 s the fills since the window's complete end (the chain moving on meanwhile).
let feedRows = 0;
let feedErrors = 0;
let stopped = false;
const endTs = (await json<{ blockTs: number }>(`${base}/v1/health`, cheapKey)).blockTs;
const FEED_POLL_MS = 5_000;
const pulls = (async () => {
  let from = endTs - 604_800;
  let cursor: string | null = null;
  while (!stopped) {
    const path = `/v1/fills?markets=${markets.join(',')}&from=${from}&to=${from + 604_800}&limit=50000`;
    try {
      const page = await pullFillsPage(port, feedKey, cursor ? `${path}&cursor=${cursor}` : path);
      feedRows += page.rows;
      cursor = page.next;
      if (cursor === null) {
        from = page.completeThroughTs;
        await new Promise((resolve) => setTimeout(resolve, FEED_POLL_MS));
      }
    } catch {
      feedErrors++;
      cursor = null;
    }
  }
})();

interface Minute {
  minute: number;
  rssMiB: number;
  anonMiB: number;
  heapMiB: number;
  cheap: WrkMinute;
  uncached: WrkMinute;
  lagBlocks: number;
  block: number;
}
const rows: Minute[] = [];
console.log(`soak: ${minutes} min at ${pace}x the venue's pace, run ${base}, devnet ${devnet.match}`);
for (let minute = 1; minute <= minutes; minute++) {
  const started = Date.now();
  // RSS every 5 s of the minute, its median kept: one reading lands anywhere in a GC's or the answer cache's cycle.
  const samples: Array<{ total: number; anon: number }> = [];
  const sampling = setInterval(() => samples.push(rss(run.child.pid!)), RSS_SAMPLE_MS);
  const [cheap, uncached] = await Promise.all([
    wrkMinute(`${base}/v1/health`, cheapKey, 1, cheapScript),
    wrkMinute(`${base}/`, loadKey, 2, uncachedScript),
  ]);
  clearInterval(sampling);
  const metrics = await (await fetch(`${base.replace(/\/v1$/, '')}/metrics`)).text();
  const heap = Number(/^nodejs_heap_size_used_bytes (\d+)/m.exec(metrics)?.[1] ?? 0);
  const health = await json<{ lagBlocks: number; block: number }>(`${base}/v1/health`, cheapKey);
  if (samples.length === 0) samples.push(rss(run.child.pid!));
  const memory = { total: median(samples.map((x) => x.total)), anon: median(samples.map((x) => x.anon)) };
  const row = {
    minute,
    rssMiB: Math.round(memory.total / 2 ** 20),
    anonMiB: Math.round(memory.anon / 2 ** 20),
    heapMiB: Math.round(heap / 2 ** 20),
    cheap,
    uncached,
    lagBlocks: health.lagBlocks,
    block: health.block,
  };
  rows.push(row);
  console.log(
    `minute ${minute}: RSS ${row.rssMiB} MiB (${row.anonMiB} anonymous), heap ${row.heapMiB} MiB, cheap p99 ${cheap.p99} ms (${Math.round(cheap.rps)}/s), ` +
      `uncached p99 ${uncached.p99} ms (${Math.round(uncached.rps)}/s), non-2xx ${cheap.non2xx + uncached.non2xx}, ` +
      `errors ${cheap.errors + uncached.errors}, lag ${row.lagBlocks} blocks at block ${row.block} ` +
      `(${Math.round((Date.now() - started) / 1000)} s)`,
  );
}
stopped = true;
await pulls;
run.child.kill('SIGTERM');
devnet.child.kill('SIGTERM');

const last3 = rows.slice(-4);
const growth = last3.length >= 2 ? (last3.at(-1)!.rssMiB - last3[0]!.rssMiB) / last3[0]!.rssMiB : 0;
const worstCheap = Math.max(...rows.map((row) => row.cheap.p99));
const bad = rows.reduce((sum, row) => sum + row.cheap.non2xx + row.uncached.non2xx, 0);
const errors = rows.reduce((sum, row) => sum + row.cheap.errors + row.uncached.errors, 0) + feedErrors;
const endLag = rows.at(-1)!.lagBlocks;
const verdict = {
  rss: growth < 0.05,
  cheap: worstCheap < 5,
  fivexx: bad === 0 && errors === 0,
  lag: endLag < 10,
};
console.log(
  `soak verdict: ${Object.values(verdict).every(Boolean) ? 'PASS' : 'FAIL'}: RSS over the last 3 minutes ${(growth * 100).toFixed(1)}% (< 5%), ` +
    `worst cheap p99 ${worstCheap} ms (< 5), non-2xx ${bad} and errors ${errors} (0), lag at the end ${endLag} blocks (< 10); ` +
    `${feedRows} fill rows pulled`,
);
const figures: Array<[string, string, string]> = rows.map((row) => [
  `minute ${row.minute}: RSS (anonymous) / heap MiB, cheap p99 / uncached p99 ms, lag blocks`,
  `${row.rssMiB} (${row.anonMiB}) / ${row.heapMiB}, ${row.cheap.p99} / ${row.uncached.p99}, ${row.lagBlocks}`,
  `${Math.round(row.cheap.rps)} and ${Math.round(row.uncached.rps)} req/s`,
]);
figures.push(
  [
    'RSS growth over the last 3 minutes',
    `${(growth * 100).toFixed(1)}%`,
    verdict.rss ? 'target < 5%: met' : 'target < 5%: MISSED',
  ],
  ['worst minute of cheap p99', `${worstCheap} ms`, verdict.cheap ? 'target < 5 ms: met' : 'target < 5 ms: MISSED'],
  ['non-2xx answers and errors', `${bad} and ${errors}`, verdict.fivexx ? 'target 0: met' : 'target 0: MISSED'],
  ['fold lag at the end', `${endLag} blocks`, verdict.lag ? 'target < 10: met' : 'target < 10: MISSED'],
  ['fill rows pulled', String(feedRows), `${Math.round(feedRows / (minutes * 60))} a second`],
);
recordBenchFigures(`soak, ${minutes} min at ${pace}x the venue's pace, wrk`, figures);
