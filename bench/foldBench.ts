// `npm run bench:fold -- --fills N [--workers W] [--runs R]`: end-to-end fold throughput (chain logs/s from
// capture file to committed state) and peak RSS, against a ceiling measured in the same run: reading and
// decoding the same capture without folding. Medians over R runs. Last line:
//   fold logs/s: X ceiling logs/s: Y peak rss MiB: Z
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_PRICE_FEEDS } from '../replay/demo/demoFeeds.js';
import { generateDemoVenue } from '../replay/demo/generateDemoVenue.js';
import { recordBenchFigures } from './recordBenchFigures.js';

const { values } = parseArgs({ options: { fills: { type: 'string' }, workers: { type: 'string' }, runs: { type: 'string' }, dir: { type: 'string' } } });
const fills = Number(values.fills ?? 200_000);
const workers = Number(values.workers ?? 1);
const runs = Number(values.runs ?? 3);
const root = values.dir ?? join('bench', '.cache');
const inputs = join(root, `demo-${fills}`);
const capture = join(inputs, 'capture.ndjson');
const config = join(root, 'config.json');

mkdirSync(root, { recursive: true });
writeFileSync(config, JSON.stringify({ addresses: { priceFeeds: DEMO_PRICE_FEEDS } }));
if (!existsSync(join(inputs, 'demo.json'))) {
  mkdirSync(inputs, { recursive: true });
  console.log(`generating the demo capture with ${fills.toLocaleString('en-US')} fills into ${inputs}`);
  await generateDemoVenue({ outDir: inputs, fills, seed: 1 });
}

interface PhaseResult { logs: number; seconds: number; maxRssMiB: number }
function phase(name: 'ceiling' | 'fold'): PhaseResult {
  const dataDir = join(root, 'fold-data');
  rmSync(dataDir, { recursive: true, force: true });
  const script = new URL('./foldPhase.ts', import.meta.url).pathname;
  const run = spawnSync(process.execPath, ['--import', 'tsx', script, name, capture, config, dataDir, String(workers)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${name} phase failed: ${run.stderr}`);
  rmSync(dataDir, { recursive: true, force: true });
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ceilings: number[] = [];
const folds: number[] = [];
const rss: number[] = [];
let logs = 0;
for (let run = 0; run < runs; run++) {
  const ceiling = phase('ceiling');
  const fold = phase('fold');
  logs = fold.logs;
  ceilings.push(ceiling.logs / ceiling.seconds);
  folds.push(fold.logs / fold.seconds);
  rss.push(fold.maxRssMiB);
  console.log(`run ${run + 1}: ${fold.logs.toLocaleString('en-US')} logs, fold ${fold.seconds.toFixed(2)} s, ceiling ${ceiling.seconds.toFixed(2)} s, fold peak rss ${fold.maxRssMiB.toFixed(0)} MiB`);
}
const foldRate = Math.round(median(folds));
const ceilingRate = Math.round(median(ceilings));
const peak = Math.round(Math.max(...rss));
recordBenchFigures(`fold, ${fills.toLocaleString('en-US')} fills (${logs.toLocaleString('en-US')} logs), ${workers} worker(s)`, [
  ['fold logs/s (median)', foldRate.toLocaleString('en-US'), `${(foldRate / 250_000).toFixed(2)}x the 250,000 target; ${(foldRate / ceilingRate).toFixed(2)}x the ceiling`],
  ['ceiling logs/s (read + decode, median)', ceilingRate.toLocaleString('en-US'), ''],
  ['fold peak RSS MiB (max)', String(peak), `${(peak / 1536).toFixed(2)}x the 1.5 GiB ceiling`],
]);
console.log(`fold logs/s: ${foldRate} ceiling logs/s: ${ceilingRate} peak rss MiB: ${peak}`);
