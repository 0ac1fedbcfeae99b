// The share done and the time left that capture, ingest --rpc and run print (cli/blockProgress.ts), on a fake clock.
import t from 'tap';
import { createBlockProgress, formatDuration } from '../../cli/blockProgress.js';

t.test("default: percent of the blocks from the first to the head, and the time left at this run's rate", async (t) => {
  let now = 0;
  const progress = createBlockProgress(1_000, () => now);
  t.same(progress(1_099, 1_999), { done: '10.0%' }, 'no rate before a second report');
  now = 10_000;
  t.same(progress(1_199, 1_999), { done: '20.0%', eta: '1 min' }, '100 blocks in 10 s, 800 left: 80 s');
  now = 20_000;
  t.same(progress(1_999, 1_999), { done: '100.0%' }, 'caught up: no estimate');
});

t.test('behavior: a block before the first counts as none read', async (t) => {
  const progress = createBlockProgress(50, () => 0);
  t.same(progress(49, 149), { done: '0.0%' });
});

t.test('default: durations', async (t) => {
  t.equal(formatDuration(42), '42 s');
  t.equal(formatDuration(90), '2 min');
  t.equal(formatDuration(3_599), '1 h 00 min');
  t.equal(formatDuration(3 * 3_600 + 5 * 60), '3 h 05 min');
  t.equal(formatDuration(5 * 86_400 + 7 * 3_600), '5 d 7 h');
});
