// When the fold releases the state map: after enough events, or sooner once resident memory passes the budget.
import t from 'tap';
import { createReleasePolicy } from '../../engine/fold/createReleasePolicy.js';

t.test('default: due after the event count, counted across batches, then counted afresh', async (t) => {
  const policy = createReleasePolicy(100, Infinity);
  t.same([policy.due(40), policy.due(40), policy.due(40), policy.due(40)], [false, false, true, false]);
});

t.test('behavior: past the memory budget every batch is due', async (t) => {
  const policy = createReleasePolicy(1_000_000, 1);
  t.same([policy.due(1), policy.due(1)], [true, true]);
});

t.test('behavior: an unbounded interval never releases, whatever the memory (a server holds the map)', async (t) => {
  const policy = createReleasePolicy(Infinity, 1);
  t.equal(policy.due(1_000_000), false);
});
