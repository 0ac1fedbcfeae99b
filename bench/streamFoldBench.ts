// `npm run bench:fold-stream -- --fills N [--workers W] [--dir D]`: one backfill of a demo venue too large to keep
// its capture on disk (30M fills make some 125 GB of capture lines): the demo is generated into a pipe while the fold
// phase reads it, so only the fold's own log and state take room. The generator shares the machine with the fold
// (about 4 CPU µs a log), so the rates are a little low. Prints the fold's tenths, and a projection of a fold of
// 10^9 logs from them: the seconds a log of tenths 2 to 9 fitted as a line in the logs folded (the first tenth
// fills an empty state, the last holds the hand-off), integrated to 10^9 logs, plus the hand-off grown with the
// fills. Records its figures in bench/README.md.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultWalletWorkers } from '../engine/fold/defaultWalletWorkers.js';
import { parseArgs } from 'node:util';
import { DEMO_PRICE_FEEDS } from '../cli/demo/demoFeeds.js';
import { printTenths, runFoldPhase } from './foldPhaseRun.js';
import { recordBenchFigures } from './recordBenchFigures.js';

const { values } = parseArgs({
  options: { fills: { type: 'string' }, workers: { type: 'string' }, dir: { type: 'string' } },
});
const fills = Number(values.fills ?? 30_000_000);
const workers = values.workers === undefined ? defaultWalletWorkers() : Number(values.workers);
const root = values.dir ?? join('bench', '.cache');
const inputs = join(root, `stream-${fills}`);
const capture = join(inputs, 'capture.ndjson');
const config = join(root, 'config.json');
const dataDir = join(root, 'stream-fold-data');
const PROJECTED_LOGS = 1e9;

rmSync(inputs, { recursive: true, force: true });
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(inputs, { recursive: true });
writeFileSync(config, JSON.stringify({ addresses: { priceFeeds: DEMO_PRICE_FEEDS } }));
if (spawnSync('mkfifo', [capture]).status !== 0) throw new Error(`mkfifo ${capture} failed`);
const generator = spawn(
  process.execPath,
  ['--import', 'tsx', new URL('./streamDemoCapture.ts', import.meta.url).pathname, inputs, String(fills)],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
const generated = new Promise<number | null>((resolve) => generator.on('exit', resolve));
console.log(`folding the demo of ${fills.toLocaleString('en-US')} fills as it is generated into ${capture}`);
const fold = runFoldPhase('fold', { capture, config, dataDir, workers, mode: 'backfill' });
if ((await generated) !== 0) throw new Error('the demo generator failed');
rmSync(inputs, { recursive: true, force: true });
rmSync(dataDir, { recursive: true, force: true });
printTenths(fold, 'backfill');

const tenths = fold.marginal!.tenths;
// Seconds a log against the logs folded, at each tenth's middle: a least-squares line over tenths 2 to 9.
const points = tenths.slice(1, 9).map((tenth, i) => [((i + 1.5) * fold.logs) / 10, 1 / tenth.logsPerSecond] as const);
const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
// A rate that rose is projected flat: a falling cost a log would integrate to nothing.
const slope = Math.max(
  0,
  points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0) /
    points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0),
);
const intercept = meanY - slope * meanX;
// The integral of intercept + slope * x from 0 to N, and the hand-off grown in proportion to the fills.
const projectedFoldSeconds = intercept * PROJECTED_LOGS + (slope * PROJECTED_LOGS ** 2) / 2;
const projectedHandOffSeconds = (fold.handOffSeconds * PROJECTED_LOGS) / fold.logs;
const projectedHours = (projectedFoldSeconds + projectedHandOffSeconds) / 3600;
const rateAt = (logs: number) => 1 / (intercept + slope * logs);
const first = tenths[0]!;
const last = tenths[9]!;
console.log(
  `${fold.logs.toLocaleString('en-US')} logs in ${fold.seconds.toFixed(1)} s (${Math.round(fold.logs / fold.seconds)} logs/s), ${((fold.cpuSeconds * 1e6) / fold.logs).toFixed(2)} CPU µs/log, peak rss ${fold.maxRssMiB.toFixed(0)} MiB; projected to 10^9 logs: ${projectedHours.toFixed(1)} h (${Math.round(rateAt(PROJECTED_LOGS))} logs/s at the end)`,
);
recordBenchFigures(`fold of a streamed capture, ${fills.toLocaleString('en-US')} fills, ${workers} worker(s)`, [
  ['logs', fold.logs.toLocaleString('en-US'), `${fold.fills.toLocaleString('en-US')} fills`],
  ['fold logs/s, whole (hand-off included)', Math.round(fold.logs / fold.seconds).toLocaleString('en-US'), ''],
  ['fold CPU µs per log, all threads', ((fold.cpuSeconds * 1e6) / fold.logs).toFixed(2), ''],
  [
    'first and last tenth logs/s',
    `${Math.round(first.logsPerSecond).toLocaleString('en-US')} and ${Math.round(last.logsPerSecond).toLocaleString('en-US')}`,
    `${(last.logsPerSecond / first.logsPerSecond).toFixed(2)}x; tenth 9: ${Math.round(tenths[8]!.logsPerSecond).toLocaleString('en-US')}`,
  ],
  [
    'bytes written per log, first and last tenth (wchar)',
    `${Math.round(first.writtenBytesPerLog)} and ${Math.round(last.writtenBytesPerLog)}`,
    `${(last.writtenBytesPerLog / first.writtenBytesPerLog).toFixed(2)}x`,
  ],
  [
    'hand-off seconds, of them collecting the runs',
    `${fold.handOffSeconds.toFixed(1)}, ${fold.handOffCollectSeconds.toFixed(1)}`,
    `map releases: ${fold.releases}`,
  ],
  [
    'peak RSS MiB',
    fold.maxRssMiB.toFixed(0),
    `anonymous ${fold.rss!.anonMiB.toFixed(0)}, file-backed ${fold.rss!.fileMiB.toFixed(0)}`,
  ],
  [
    'state bytes per fill on disk',
    Math.round(fold.stateBytes / fold.fills).toLocaleString('en-US'),
    `${(fold.stateBytes / 1024 ** 3).toFixed(2)} GiB`,
  ],
  [
    'projected fold of 10^9 logs, hours',
    projectedHours.toFixed(1),
    `seconds a log fitted over tenths 2-9: ${Math.round(rateAt(0))} logs/s at the start, ${Math.round(rateAt(PROJECTED_LOGS))} at 10^9; hand-off ${(projectedHandOffSeconds / 60).toFixed(0)} min`,
  ],
]);
