// `npm run bench:api [-- --seconds S --connections C]`: requests/s and p50/p99 latency over loopback for
// positions?status=open of a wallet with about 500 positions and for a wallet-trades page, each against the same
// answer bytes served from memory by a bare uWebSockets.js handler in the same run (the ceiling). The server
// runs in its own process; the load generator (autocannon) shares the machine's 2 cores with it. The rate
// limit is lifted for the run with TALLY_BENCH_NO_RATE_LIMIT (it would stop the load at 600 requests).
import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStateStore } from '../engine/state/openStateStore.js';
import { recordBenchFigures } from './recordBenchFigures.js';

const { values } = parseArgs({ options: { seconds: { type: 'string' }, connections: { type: 'string' } } });
const seconds = Number(values.seconds ?? 10);
const connections = Number(values.connections ?? 32);
const root = join('bench', '.cache', 'api');
const data = join(root, 'venue');
const tally = new URL('../engine/cli/tally.mjs', import.meta.url).pathname;

if (!existsSync(join(data, 'state'))) {
  mkdirSync(root, { recursive: true });
  console.log('generating and folding the 200k-fill demo venue');
  const run = spawnSync(process.execPath, [tally, 'demo', '--data', data], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error('demo failed');
}
const key = spawnSync(process.execPath, [tally, 'keys', 'create', '--data', data], { encoding: 'utf8' }).stdout.trim().split('\n').at(-1)!;

// The wallet whose position count is closest to 500.
const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
const counts = new Map<string, number>();
for (const { key: k } of store.dbs.positions.getRange({})) counts.set(String(k).slice(0, 42), (counts.get(String(k).slice(0, 42)) ?? 0) + 1);
await store.close();
const [wallet, positions] = [...counts].sort((a, b) => Math.abs(a[1] - 500) - Math.abs(b[1] - 500))[0]!;

function start(command: string[], env: Record<string, string> = {}): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, command, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout!.on('data', (chunk: Buffer) => { if (/ready|serving/.test(chunk.toString())) resolve(child); });
    child.on('exit', (code) => reject(new Error(`${command.join(' ')} exited ${code}`)));
  });
}

async function load(url: string): Promise<{ rps: number; p50: number; p99: number }> {
  const result = await autocannon({ url, connections, duration: seconds, headers: { authorization: `Bearer ${key}` } });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const port = 18_300;
const server = await start([tally, 'serve', '--data', data, '--port', String(port)], { TALLY_BENCH_NO_RATE_LIMIT: '1' });
const targets = [
  { name: `positions?status=open, ${positions} positions`, path: `/v1/wallets/${wallet}/positions?status=open&limit=2500` },
  { name: 'wallet trades page (100)', path: `/v1/wallets/${wallet}/trades?limit=100` },
];
const rows: Array<[string, string, string]> = [];
try {
  for (const target of targets) {
    const url = `http://127.0.0.1:${port}${target.path}`;
    const bytes = Buffer.from(await (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer());
    const file = join(root, 'answer.json');
    writeFileSync(file, bytes);
    const served = await load(url);
    const bare = await start(['--import', 'tsx', new URL('./bareServer.ts', import.meta.url).pathname, file, String(port + 1)]);
    const ceiling = await load(`http://127.0.0.1:${port + 1}/`);
    bare.kill();
    console.log(`${target.name} (${bytes.length} bytes): tally ${Math.round(served.rps)} req/s p50 ${served.p50} ms p99 ${served.p99} ms; ` +
      `bare uWS ${Math.round(ceiling.rps)} req/s p50 ${ceiling.p50} ms p99 ${ceiling.p99} ms`);
    rows.push([`${target.name}: req/s`, `${Math.round(served.rps).toLocaleString('en-US')} (ceiling ${Math.round(ceiling.rps).toLocaleString('en-US')})`,
      `${(served.rps / ceiling.rps).toFixed(2)}x the ceiling (target 0.5x)`]);
    rows.push([`${target.name}: p50 / p99 ms`, `${served.p50} / ${served.p99} (ceiling ${ceiling.p50} / ${ceiling.p99})`, `p99 target 5 ms`]);
  }
} finally {
  server.kill();
}
recordBenchFigures(`api, ${connections} connections, ${seconds} s per target`, rows);
