// `npm run bench:capped [-- --data DIR | --fills N] [--share S] [--heap-mib H] [--requests R]`: a state larger
// than the memory it is served from. `tally serve` runs in a memory cgroup whose limit is S (default 0.25) of the
// state's size on disk plus H MiB (default 512) for the process's own heaps, with the state's pages dropped from the
// page cache first, so every page an answer reads past that limit comes from disk again. The same requests then go
// to a server with the whole state in the page cache: the ceiling. Each request names another wallet or market (no
// cached answer helps), one at a time on one keep-alive connection: R (default 300) of each of four routes, wallets'
// open positions and trades, markets' traders and trades, for wallets and markets drawn at random (seeded) from the
// state. Prints p50 and p99 per route, both runs, their ratio, the cgroup's peak memory and page cache, the server's
// major faults and bytes read from disk, and writes the figures into bench/README.md.
//
// The state comes from `--data DIR`, or is made once by `tally demo --fills N` (default 10,000,000) into
// bench/.cache/capped. Needs root for the cgroup (v2 `memory.max`, or v1 `memory.limit_in_bytes`: both count page
// cache with the process's memory) and GNU dd (iflag=nocache drops a file's cached pages).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStateStore } from '../engine/state/openStateStore.js';
import { createStateReader } from '../engine/state/stateReader.js';
import { recordBenchFigures } from './recordBenchFigures.js';
import { createRandom } from './seededRandom.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    fills: { type: 'string' },
    share: { type: 'string' },
    'heap-mib': { type: 'string' },
    requests: { type: 'string' },
  },
});
const share = Number(values.share ?? 0.25);
const heapBytes = Number(values['heap-mib'] ?? 512) * 1024 ** 2;
const perRoute = Number(values.requests ?? 300);
const tally = new URL('../cli/tally.mjs', import.meta.url).pathname;
const MiB = 1024 ** 2;

/** The data directory: given, or the demo made once with `fills` fills. */
function benchData(): string {
  if (values.data) return values.data;
  const fills = Number(values.fills ?? 10_000_000);
  const data = join('bench', '.cache', 'capped', `venue-${fills}`);
  if (!existsSync(join(data, 'state'))) {
    mkdirSync(data, { recursive: true });
    console.log(`capped: generating and folding a ${fills.toLocaleString('en-US')}-fill demo into ${data} (once)`);
    const demo = spawnSync(process.execPath, [tally, 'demo', '--data', data, '--fills', String(fills)], {
      stdio: 'inherit',
    });
    if (demo.status !== 0) throw new Error('capped: tally demo failed');
  }
  return data;
}

/** The files under `dir`, with the bytes each holds on disk (a sparse file's holes not counted). */
function filesOf(dir: string): Array<{ path: string; bytes: number }> {
  return readdirSync(dir, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, bytes: statSync(path).blocks * 512 }));
}

/** Drops the files' pages from the page cache (what another cgroup faulted in would be free to this one). */
function dropCached(files: Array<{ path: string }>): void {
  for (const { path } of files) {
    const dd = spawnSync('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none']);
    if (dd.status !== 0) throw new Error(`capped: dd could not drop ${path}: ${dd.stderr}`);
  }
}

/** Reads the files whole, so their pages are cached: the ceiling's state. */
function readWhole(files: Array<{ path: string }>): void {
  for (const { path } of files) spawnSync('dd', [`if=${path}`, 'of=/dev/null', 'bs=4M', 'status=none']);
}

/** Bytes of the files resident in the page cache (util-linux fincore). */
function residentBytes(files: Array<{ path: string }>): number {
  const out = spawnSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', ...files.map((f) => f.path)], {
    encoding: 'utf8',
  }).stdout;
  return out
    .split('\n')
    .filter((line) => line.trim() !== '')
    .reduce((sum, line) => sum + Number(line.trim()), 0);
}

/** A memory cgroup limited to `limit` bytes, in whichever hierarchy the machine mounts. */
function memoryGroup(limit: number) {
  const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers');
  const dir = v2 ? `/sys/fs/cgroup/tally-capped-${process.pid}` : `/sys/fs/cgroup/memory/tally-capped-${process.pid}`;
  mkdirSync(dir);
  writeFileSync(join(dir, v2 ? 'memory.max' : 'memory.limit_in_bytes'), String(limit));
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  const stat = () =>
    Object.fromEntries(
      read('memory.stat')
        .trim()
        .split('\n')
        .map((line) => line.split(' '))
        .map(([name, value]) => [name!, Number(value)]),
    );
  return {
    dir,
    v2,
    /** The peak of memory charged to the group (v2 kernels before 5.19 keep none: the last reading then). */
    peak: () => Number(read(v2 ? 'memory.peak' : 'memory.max_usage_in_bytes')),
    /** The group's page cache and anonymous memory now. */
    usage: () => {
      const s = stat();
      return v2 ? { cache: s.file!, anon: s.anon! } : { cache: s.cache!, anon: s.rss! };
    },
    remove: () => rmdirSync(dir),
  };
}

/** `tally serve` on a free port, in the cgroup when given one; resolves once it prints its URL. */
function serve(data: string, group: string | null): Promise<{ child: ChildProcess; port: number }> {
  const command = `${group === null ? '' : `echo $$ > ${group}/cgroup.procs && `}exec "$0" "$@"`;
  const args = [tally, 'serve', '--data', data, '--host', '127.0.0.1', '--port', '0'];
  const child = spawn('sh', ['-c', command, process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const port = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      if (port) resolve({ child, port: Number(port) });
    });
    child.once('exit', (code) => reject(new Error(`capped: serve exited ${code}: ${out}`)));
  });
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The process's major faults and the bytes it read from disk so far. */
function diskReads(pid: number): { majorFaults: number; readBytes: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return { majorFaults: Number(fields[9]), readBytes: Number(/read_bytes: (\d+)/.exec(io)![1]) };
}

/** One GET on a keep-alive connection: its status and milliseconds. */
function timedGet(agent: Agent, port: number, key: string, path: string): Promise<{ status: number; ms: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${key}` } }, (response) => {
      response.on('data', () => {});
      response.on('end', () =>
        resolve({ status: response.statusCode!, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
      );
    }).on('error', reject);
  });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

const data = benchData();
const stateFiles = filesOf(join(data, 'state'));
const stateBytes = stateFiles.reduce((sum, file) => sum + file.bytes, 0);
/** A key of its own for each route: a key may ask 600 times a minute, and the ceiling asks faster. */
const newKey = () =>
  spawnSync(process.execPath, [tally, 'keys', 'create', '--data', data], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .at(-1)!;

// The subjects, drawn before the state's pages are dropped (reading them caches what they touch).
const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
const state = createStateReader(store);
const random = createRandom(7);
const draw = (all: string[]) => Array.from({ length: perRoute }, () => all[Math.floor(random() * all.length)]!);
const holders = [...state.positionHolders()].map(({ wallet }) => wallet);
const conditions = [...store.dbs.markets.getKeys({})].map(String).filter((id) => /^0x[0-9a-f]{64}$/.test(id));
const routes: Array<[name: string, paths: string[], key: string]> = [
  ['wallet open positions', draw(holders).map((w) => `/v1/wallets/${w}/positions?status=open&limit=100`), newKey()],
  ['wallet trades', draw(holders).map((w) => `/v1/wallets/${w}/trades?limit=100`), newKey()],
  ['market traders', draw(conditions).map((m) => `/v1/markets/${m}/traders?limit=100`), newKey()],
  ['market trades', draw(conditions).map((m) => `/v1/markets/${m}/trades?limit=100`), newKey()],
];
await store.close();
console.log(
  `capped: ${data}: state ${(stateBytes / MiB).toFixed(0)} MiB on disk, ${holders.length.toLocaleString('en-US')} wallets, ` +
    `${conditions.length.toLocaleString('en-US')} markets; ${perRoute} requests a route`,
);

interface RunResult {
  ms: Map<string, number[]>;
  failed: number;
  majorFaults: number;
  readBytes: number;
}

/** Every route's requests, interleaved (a wallet's, a market's, ...) so that no route runs on a warmer cache. */
async function measure(port: number, pid: number): Promise<RunResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ms = new Map(routes.map(([name]) => [name, [] as number[]]));
  let failed = 0;
  const before = diskReads(pid);
  for (let i = 0; i < perRoute; i++) {
    for (const [name, paths, key] of routes) {
      const answer = await timedGet(agent, port, key, paths[i]!);
      if (answer.status !== 200) failed++;
      ms.get(name)!.push(answer.ms);
    }
  }
  agent.destroy();
  const after = diskReads(pid);
  for (const list of ms.values()) list.sort((a, b) => a - b);
  return {
    ms,
    failed,
    majorFaults: after.majorFaults - before.majorFaults,
    readBytes: after.readBytes - before.readBytes,
  };
}

// Capped: the state's pages dropped, the server started in the group.
const limit = Math.round(share * stateBytes + heapBytes);
const group = memoryGroup(limit);
dropCached(stateFiles);
console.log(
  `capped: limit ${(limit / MiB).toFixed(0)} MiB (${share} of the state + ${heapBytes / MiB} MiB), ` +
    `${(residentBytes(stateFiles) / MiB).toFixed(0)} MiB of the state cached before the start`,
);
const capped = await serve(data, group.dir);
const cappedRun = await measure(capped.port, capped.child.pid!);
const cappedUsage = group.usage();
const cappedPeak = group.peak();
await stopped(capped.child);
group.remove();

// The ceiling: the whole state in the page cache, no limit.
readWhole(stateFiles);
const warm = await serve(data, null);
const warmRun = await measure(warm.port, warm.child.pid!);
await stopped(warm.child);

const rows: Array<[string, string, string]> = [];
const f = (ms: number) => ms.toFixed(2);
for (const [name] of routes) {
  const a = cappedRun.ms.get(name)!;
  const b = warmRun.ms.get(name)!;
  for (const [label, q] of [
    ['p50', 0.5],
    ['p99', 0.99],
  ] as const) {
    const [x, y] = [quantile(a, q), quantile(b, q)];
    rows.push([`${name} ${label} ms, capped (whole state cached)`, `${f(x)} (${f(y)})`, `${(x / y).toFixed(2)}x`]);
  }
}
rows.push(
  ['state on disk MiB', (stateBytes / MiB).toFixed(0), ''],
  ['cgroup limit MiB', (limit / MiB).toFixed(0), `${(limit / stateBytes).toFixed(2)}x state`],
  ['cgroup peak MiB', (cappedPeak / MiB).toFixed(0), `${(cappedPeak / limit).toFixed(2)}x limit`],
  [
    'page cache, anonymous at the end MiB',
    `${(cappedUsage.cache / MiB).toFixed(0)}, ${(cappedUsage.anon / MiB).toFixed(0)}`,
    `${(cappedUsage.cache / stateBytes).toFixed(2)}x state`,
  ],
  [
    'major faults, MiB read from disk: capped (ceiling)',
    `${cappedRun.majorFaults} / ${(cappedRun.readBytes / MiB).toFixed(0)} (${warmRun.majorFaults} / ${(warmRun.readBytes / MiB).toFixed(0)})`,
    '',
  ],
  ['non-200 answers: capped, ceiling', `${cappedRun.failed}, ${warmRun.failed}`, ''],
);
for (const [metric, value, ratio] of rows) console.log(`${metric}: ${value}${ratio ? ` ${ratio}` : ''}`);
recordBenchFigures(
  `capped memory, ${share} of the state plus ${heapBytes / MiB} MiB, ${perRoute} requests a route`,
  rows,
);
