// `npm run bench:startup [-- --runs N]`: how long a CLI command takes to start, for `tally --help` and
// `tally keys list`: run from the build made at install (what `tally` runs) and from the TypeScript sources
// through tsx (what it ran before the build, and still runs when a source is newer than the build), against a
// bare `node -e 0` in the same run (the ceiling). Wall and CPU time (user + system, from /usr/bin/time) per
// start, medians of N interleaved runs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { recordBenchFigures } from './recordBenchFigures.js';

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const runs = Number(values.runs ?? 9);
const root = new URL('..', import.meta.url).pathname;
const data = mkdtempSync(join(tmpdir(), 'tally-startup-'));
const built = spawnSync(process.execPath, ['cli/build.mjs'], { cwd: root, encoding: 'utf8' });
if (built.status !== 0) throw new Error('build failed: ' + built.stderr);
spawnSync(process.execPath, ['cli/tally.mjs', 'keys', 'create', '--data', data], { cwd: root });

const targets: Array<[name: string, args: string[]]> = [
  ['node -e 0 (ceiling)', ['-e', '0']],
  ['tally --help, build', ['cli/tally.mjs', '--help']],
  ['tally --help, sources via tsx', ['--import', 'tsx', 'cli/main.ts', '--help']],
  ['tally keys list, build', ['cli/tally.mjs', 'keys', 'list', '--data', data]],
  ['tally keys list, sources via tsx', ['--import', 'tsx', 'cli/main.ts', 'keys', 'list', '--data', data]],
];

/** One start: wall and CPU milliseconds. */
function time(args: string[]): { wall: number; cpu: number } {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %U %S', process.execPath, ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed: ${run.stderr}`);
  const [wall, user, system] = run.stderr.trim().split('\n').at(-1)!.split(' ').map(Number) as [number, number, number];
  return { wall: wall * 1000, cpu: (user + system) * 1000 };
}

const samples = targets.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
for (let round = 0; round <= runs; round++) {
  targets.forEach(([, args], i) => {
    const sample = time(args);
    if (round === 0) return; // warms the page cache
    samples[i]!.wall.push(sample.wall);
    samples[i]!.cpu.push(sample.cpu);
  });
}
rmSync(data, { recursive: true, force: true });

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const ceiling = median(samples[0]!.cpu);
const rows: Array<[string, string, string]> = targets.map(([name], i) => {
  const cpu = median(samples[i]!.cpu);
  return [
    name,
    `${Math.round(median(samples[i]!.wall))} ms wall, ${Math.round(cpu)} ms CPU`,
    `${(cpu / ceiling).toFixed(1)}x bare node CPU`,
  ];
});
for (const row of rows) console.log(row.join('  '));
recordBenchFigures(`start-up, medians of ${runs} interleaved runs`, rows);
