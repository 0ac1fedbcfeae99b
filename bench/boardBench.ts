// `npm run bench:board -- [--runs R] [--wallets W] [--markets M]`: the board's rollup (every wallet's market
// results and lifetime rows) for the whole demo board (`tally demo`'s 200,000 fills) and for a state shaped like
// a 10-million-fill venue (W wallets, default 300,000, over M markets, default 45,000: writeBoardState.ts),
// against the ceiling of reading and decoding every position of the same state, in the same run; and the 7d
// stats answer of a wallet in 10,000 markets, against reading its market results alone. Each phase in its own
// process; R interleaved runs (default 3), medians. Targets (issue 11): a full rollup of a 10-million-fill venue
// under 60 s; a windowed stats answer for a wallet with 10,000 markets under 20 ms.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { recordBenchFigures } from './recordBenchFigures.js';
import { writeBoardState } from './writeBoardState.js';

const { values } = parseArgs({
  options: { runs: { type: 'string' }, wallets: { type: 'string' }, markets: { type: 'string' } },
});
const runs = Number(values.runs ?? 3);
const wallets = Number(values.wallets ?? 300_000);
const marketCount = Number(values.markets ?? 45_000);
const DEMO_FILLS = 200_000;
const demo = join('bench', '.cache', `board-demo-${DEMO_FILLS}`);
const large = join('bench', '.cache', `board-${wallets}-${marketCount}`);
const phaseScript = new URL('./boardPhase.ts', import.meta.url).pathname;

if (!existsSync(join(demo, 'state'))) {
  console.log(`folding the ${DEMO_FILLS.toLocaleString('en-US')}-fill demo venue into ${demo}`);
  const run = spawnSync(process.execPath, ['cli/tally.mjs', 'demo', '--fills', String(DEMO_FILLS), '--data', demo], {
    stdio: 'inherit',
  });
  if (run.status !== 0) throw new Error('tally demo failed');
}
const largeInfo = join(large, 'bench.json');
if (!existsSync(largeInfo)) {
  console.log(
    `writing a state of ${wallets.toLocaleString('en-US')} wallets over ${marketCount.toLocaleString('en-US')} markets into ${large}`,
  );
  writeFileSync(largeInfo, JSON.stringify(await writeBoardState(large, wallets, marketCount)));
}
const { whale, positions } = JSON.parse(readFileSync(largeInfo, 'utf8')) as { whale: string; positions: number };

function phase<T>(...args: string[]): T {
  const run = spawnSync(process.execPath, ['--import', 'tsx', phaseScript, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as T;
}

interface Timed {
  seconds: number;
  cpuSeconds: number;
}
interface Rollup extends Timed {
  wallets: number;
  results: number;
  maxRssMiB: number;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const figures: Array<[string, string, string]> = [];
for (const [label, data] of [
  ['demo board (200,000 fills)', demo],
  [
    `10M-fill venue (${wallets.toLocaleString('en-US')} wallets, ${positions.toLocaleString('en-US')} positions)`,
    large,
  ],
] as const) {
  const rollups: Rollup[] = [];
  const ceilings: Array<Timed & { positions: number }> = [];
  for (let run = 0; run < runs; run++) {
    ceilings.push(phase('ceiling', data));
    rollups.push(phase('rollup', data));
    const r = rollups.at(-1)!;
    console.log(
      `${label}, run ${run + 1}: rollup ${r.seconds.toFixed(2)} s (${r.cpuSeconds.toFixed(2)} s CPU, ${r.wallets} wallets, ${r.results} results, peak ${r.maxRssMiB.toFixed(0)} MiB); reading the positions ${ceilings.at(-1)!.seconds.toFixed(2)} s`,
    );
  }
  const seconds = median(rollups.map((r) => r.seconds));
  const cpu = median(rollups.map((r) => r.cpuSeconds));
  const ceilingCpu = median(ceilings.map((c) => c.cpuSeconds));
  const n = ceilings[0]!.positions;
  figures.push(
    [
      `${label}: rollup s (median)`,
      seconds.toFixed(2),
      data === large ? `${(seconds / 60).toFixed(2)}x the 60 s target` : '',
    ],
    [
      `${label}: rollup CPU µs per position (median)`,
      ((cpu / n) * 1e6).toFixed(2),
      `${(cpu / ceilingCpu).toFixed(2)}x the ceiling's ${((ceilingCpu / n) * 1e6).toFixed(2)} (reading and decoding every position)`,
    ],
    [
      `${label}: wallets, market results, rollup peak RSS MiB`,
      `${rollups[0]!.wallets.toLocaleString('en-US')}, ${rollups[0]!.results.toLocaleString('en-US')}, ${Math.max(...rollups.map((r) => r.maxRssMiB)).toFixed(0)}`,
      '',
    ],
  );
}
const stats = [...Array(runs)].map(() =>
  phase<{ markets: number; weekMs: number; lifetimeMs: number; ceilingMs: number }>('stats', large, whale, '50'),
);
const week = median(stats.map((s) => s.weekMs));
const ceiling = median(stats.map((s) => s.ceilingMs));
figures.push(
  [
    `7d stats of a wallet in ${stats[0]!.markets.toLocaleString('en-US')} markets, ms per answer (median of 50 calls, median of runs)`,
    week.toFixed(2),
    `${(week / 20).toFixed(2)}x the 20 ms target; ${(week / ceiling).toFixed(2)}x the ceiling's ${ceiling.toFixed(2)} ms (reading its market results)`,
  ],
  [
    'lifetime stats of the same wallet (the stored board row), ms per answer',
    median(stats.map((s) => s.lifetimeMs)).toFixed(2),
    '',
  ],
);
for (const [metric, value, ratio] of figures) console.log(`${metric}: ${value} ${ratio}`);
recordBenchFigures('board rollup and windowed stats', figures);
