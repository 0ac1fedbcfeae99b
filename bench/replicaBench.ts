// `npm run bench:replica -- --fills N [--runs R]`: the replicated venue's rates against the single box's, in the
// same run (issue 26): a plain `tally ingest --capture` (the single-box fold), `tally publish` of the same capture
// into a 3-server JetStream cluster on this machine (ingest + every frame appended with R3 acknowledgements), and a
// `tally replica` folding that stream from empty until its board is rolled up (as the ingest's is when it exits).
// Each in a process of its own, under /usr/bin/time for its CPU (user + system, every thread) and peak RSS; runs
// interleaved, medians reported. Last line:
//   single events/s: A publish events/s: B replica events/s: C replica/single: R
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_PRICE_FEEDS } from '../cli/demo/demoFeeds.js';
import { generateDemoVenue } from '../cli/demo/generateDemoVenue.js';
import { startNatsCluster } from '../test/fixtures/natsCluster.js';
import { recordBenchFigures } from './recordBenchFigures.js';

const { values } = parseArgs({ options: { fills: { type: 'string' }, runs: { type: 'string' } } });
const fills = Number(values.fills ?? 200_000);
const runs = Number(values.runs ?? 3);
const root = join('bench', '.cache');
const inputs = join(root, `demo-${fills}-v2`);
const capture = join(inputs, 'capture.ndjson');
const work = join(root, 'replica-bench');
const tally = new URL('../cli/tally.mjs', import.meta.url).pathname;

if (!existsSync(join(inputs, 'demo.json'))) {
  mkdirSync(inputs, { recursive: true });
  console.log(`generating the demo capture with ${fills.toLocaleString('en-US')} fills into ${inputs}`);
  await generateDemoVenue({ outDir: inputs, fills, seed: 1, protocolV2: true });
}
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const cluster = await startNatsCluster(join(work, 'nats'));

interface Measured {
  seconds: number;
  cpuSeconds: number;
  maxRssMiB: number;
}

function dataDir(name: string): string {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ addresses: { priceFeeds: DEMO_PRICE_FEEDS } }));
  return dir;
}

/** /usr/bin/time's last line: wall seconds, user and system CPU seconds, peak RSS in KiB. */
function readTime(stderr: string): Measured {
  const [seconds, user, system, rssKiB] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number) as number[];
  return { seconds: seconds!, cpuSeconds: user! + system!, maxRssMiB: rssKiB! / 1024 };
}

function timed(args: string[]): Measured {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, tally, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`tally ${args[0]} failed: ${run.stderr}`);
  return readTime(run.stderr);
}

/** The replica from its start until its board is rolled up at the stream's last block; its CPU over that span. */
async function replica(stream: string, lastBlock: number): Promise<Measured> {
  const data = dataDir('replica');
  const key = spawnSync(process.execPath, [tally, 'keys', 'create', '--data', data], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .at(-1)!;
  const started = process.hrtime.bigint();
  const child = spawn(
    '/usr/bin/time',
    [
      '-f',
      '%e %U %S %M',
      process.execPath,
      tally,
      'replica',
      '--nats',
      cluster.url,
      '--stream',
      stream,
      '--data',
      data,
      '--port',
      '0',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let seconds = 0;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const base = /on (http:\/\/\S+\/v1)/.exec(stdout)?.[1];
    if (!base) continue;
    const health = (await (await fetch(`${base}/health`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      block: number;
      rollups: { leaderboard: number | null };
    };
    if (health.block === lastBlock && health.rollups.leaderboard === lastBlock) {
      seconds = Number(process.hrtime.bigint() - started) / 1e9;
      break;
    }
    if (child.exitCode !== null) throw new Error(`the replica stopped: ${stderr}`);
  }
  // SIGTERM to tally itself (time's child): time then prints its figures.
  spawnSync('pkill', ['-TERM', '-P', String(child.pid)]);
  await exited;
  return { ...readTime(stderr), seconds };
}

function lastBlockOf(data: string): { block: number; events: number } {
  const run = spawnSync(process.execPath, [tally, 'verify', '--data', data], { encoding: 'utf8' });
  // The last progress line is the whole log's.
  const last = (pattern: RegExp) => Number([...run.stderr.matchAll(pattern)].at(-1)?.[1]);
  return { block: last(/last block (\d+)/g), events: last(/events (\d+)/g) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const results: Array<{ single: Measured; publish: Measured; replica: Measured; events: number }> = [];
try {
  for (let run = 0; run < runs; run++) {
    const singleDir = dataDir('single');
    const single = timed(['ingest', '--capture', capture, '--data', singleDir]);
    const { block, events } = lastBlockOf(singleDir);
    const stream = `BENCH${run}`;
    const publish = timed([
      'publish',
      '--nats',
      cluster.url,
      '--stream',
      stream,
      '--capture',
      capture,
      '--data',
      dataDir('publisher'),
    ]);
    const folded = await replica(stream, block);
    results.push({ single, publish, replica: folded, events });
    console.log(
      `run ${run + 1}: ${events.toLocaleString('en-US')} events; single ${single.seconds.toFixed(1)} s (${single.cpuSeconds.toFixed(1)} s CPU, ${single.maxRssMiB.toFixed(0)} MiB); publish ${publish.seconds.toFixed(1)} s (${publish.cpuSeconds.toFixed(1)} s CPU, ${publish.maxRssMiB.toFixed(0)} MiB); replica ${folded.seconds.toFixed(1)} s (${folded.cpuSeconds.toFixed(1)} s CPU, ${folded.maxRssMiB.toFixed(0)} MiB)`,
    );
  }
} finally {
  await cluster.stop();
}

const of = (side: 'single' | 'publish' | 'replica') => ({
  rate: Math.round(median(results.map((r) => r.events / r[side].seconds))),
  cpuMicros: median(results.map((r) => (r[side].cpuSeconds * 1e6) / r.events)),
  peak: Math.round(Math.max(...results.map((r) => r[side].maxRssMiB))),
});
const single = of('single');
const publish = of('publish');
const folded = of('replica');
// Each run's own ratio, so the drift between runs does not enter it.
const replicaRatio = median(results.map((r) => r.single.seconds / r.replica.seconds));
const publishRatio = median(results.map((r) => r.single.seconds / r.publish.seconds));
recordBenchFigures(`replicas, ${fills.toLocaleString('en-US')} fills, 3 NATS servers on this machine`, [
  [
    'single-box ingest events/s (median)',
    single.rate.toLocaleString('en-US'),
    `${single.cpuMicros.toFixed(2)} CPU µs per event; peak RSS ${single.peak} MiB`,
  ],
  [
    'publish events/s (ingest + R3 appends, median)',
    publish.rate.toLocaleString('en-US'),
    `${publishRatio.toFixed(2)}x the single box (median of each run's ratio); ${publish.cpuMicros.toFixed(2)} CPU µs per event; peak RSS ${publish.peak} MiB`,
  ],
  [
    'replica fold events/s (stream to rolled-up state, median)',
    folded.rate.toLocaleString('en-US'),
    `${replicaRatio.toFixed(2)}x the single box; ${folded.cpuMicros.toFixed(2)} CPU µs per event; peak RSS ${folded.peak} MiB`,
  ],
]);
console.log(
  `single events/s: ${single.rate} publish events/s: ${publish.rate} replica events/s: ${folded.rate} replica/single: ${replicaRatio.toFixed(2)} publish/single: ${publishRatio.toFixed(2)}`,
);
