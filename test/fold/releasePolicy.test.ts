// When the fold releases the state map: before a batch that would take resident memory past the budget
// (predicted from recent batches' growth), and at the latest after enough events.
import t from 'tap';
import { createReleasePolicy } from '../../engine/fold/createReleasePolicy.js';

const MiB = 1024 ** 2;

t.test('default: due after the event count, counted across batches, then counted afresh', async (t) => {
  const policy = createReleasePolicy(100, Infinity, () => 0);
  t.same([policy.due(40), policy.due(40), policy.due(40), policy.due(40)], [false, false, true, false]);
});

t.test('behavior: past the memory budget every batch is due', async (t) => {
  const policy = createReleasePolicy(1_000_000, 1, () => 100);
  t.same([policy.due(1), policy.due(1)], [true, true]);
});

t.test('behavior: due before the batch whose predicted growth would pass the budget', async (t) => {
  // Resident memory after each batch: about 100 MiB more per batch, budget 1,000 MiB.
  const readings = [400, 500, 600, 700, 810, 300, 400];
  let i = 0;
  const policy = createReleasePolicy(1_000_000, 1000 * MiB, () => readings[i++]! * MiB);
  // At 700 MiB, two more batches of 100 MiB would reach 900 MiB: still under. At 810 the largest growth (110)
  // twice over passes 1,000 MiB: due. After the release (300 MiB) the first reading only starts the count again.
  t.same(readings.map(() => policy.due(10)), [false, false, false, false, false, false, false].map((_, k) => k === 4));
});

t.test('behavior: an unbounded interval never releases, whatever the memory (a server holds the map)', async (t) => {
  const policy = createReleasePolicy(Infinity, 1);
  t.equal(policy.due(1_000_000), false);
});
