// A bounded heap grows to its live data and a fixed part more; V8 left alone lets it grow to several times that.
// The bound is the process's, so it is held while any fold runs and lifted when the last one ends.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { createHeapGrowthBound } from '../../engine/fold/boundHeapGrowth.js';

/**
 * The peak of a child's total heap (MiB) while it keeps about 40 MiB live and allocates 800 MiB of garbage, with
 * the heaps' growth bounded, or bounded and lifted again.
 */
function peakHeapMiB(lifted: boolean): number {
  const module = new URL('../../engine/fold/boundHeapGrowth.ts', import.meta.url).href;
  const script = `
    import v8 from 'node:v8';
    const { boundHeapGrowth } = await import(${JSON.stringify(module)});
    const lift = boundHeapGrowth();
    ${lifted ? 'lift();' : ''}
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
  const bounded = peakHeapMiB(false);
  const lifted = peakHeapMiB(true);
  t.ok(bounded < lifted * 0.75, `bounded ${bounded.toFixed(0)} MiB against ${lifted.toFixed(0)} once lifted`);
});

t.test('behavior: the bound holds until every holder has lifted it, once each', async (t) => {
  const flags: string[] = [];
  const boundHeapGrowth = createHeapGrowthBound((flag) => flags.push(flag));
  const first = boundHeapGrowth(30);
  const second = boundHeapGrowth(30);
  t.same(flags, ['--heap-growing-percent=30'], 'set by the first holder');
  first();
  first();
  t.same(flags, ['--heap-growing-percent=30'], 'held while another holder keeps it, a second lift ignored');
  second();
  t.same(flags, ['--heap-growing-percent=30', '--heap-growing-percent=0'], "lifted back to V8's own by the last");
  boundHeapGrowth(30)();
  t.equal(flags.length, 4, 'bound and lifted again');
});
