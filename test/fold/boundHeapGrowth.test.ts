// A bounded heap grows to its live data and a fixed part more; V8 left alone lets it grow to several times that.
import t from 'tap';
import { spawnSync } from 'node:child_process';

/** The peak of a child's total heap (MiB) while it keeps about 40 MiB live and allocates 800 MiB of garbage. */
function peakHeapMiB(bounded: boolean): number {
  const module = new URL('../../engine/fold/boundHeapGrowth.ts', import.meta.url).href;
  const script = `
    import v8 from 'node:v8';
    ${bounded ? `const { boundHeapGrowth } = await import(${JSON.stringify(module)}); boundHeapGrowth();` : ''}
    const live = [];
    for (let i = 0; i < 40; i++) live.push(new Array(131072).fill(i));
    let peak = 0;
    for (let round = 0; round < 80; round++) {
      const garbage = [];
      for (let i = 0; i < 10; i++) garbage.push(new Array(131072).fill(round));
      live[round % 40] = garbage[0];
      peak = Math.max(peak, v8.getHeapStatistics().total_heap_size);
    }
    process.stdout.write(String(peak / 2 ** 20));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return Number(child.stdout);
}

t.test('behavior: a bounded heap stays near its live data, well under what V8 alone lets it reach', async (t) => {
  const bounded = peakHeapMiB(true);
  const unbounded = peakHeapMiB(false);
  t.ok(bounded < unbounded * 0.75, `bounded ${bounded.toFixed(0)} MiB against ${unbounded.toFixed(0)} left alone`);
});
