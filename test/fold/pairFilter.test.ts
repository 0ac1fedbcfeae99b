// The wallet worker's filter of stored pairs: never a false "no" (a position the state holds is always looked up),
// and few false "maybe"s (each costs one lookup that misses).
import t from 'tap';
import { createPairFilter } from '../../engine/fold/pairFilter.js';

t.test('behavior: every pair added may be held; nearly no other', async (t) => {
  const filter = createPairFilter();
  // Pairs shaped like the fold's: wallet ids up to 300k, token ids up to 90k, dense at the low end.
  const added: Array<[number, number]> = [];
  for (let i = 0; i < 300_000; i++) added.push([(i * 7919) % 300_000, (i * 104_729) % 90_000]);
  for (const [a, b] of added) filter.add(a, b);
  t.ok(
    added.every(([a, b]) => filter.mayHold(a, b)),
    'no false no',
  );
  let falseAlarms = 0;
  for (let i = 0; i < 300_000; i++) if (filter.mayHold(300_000 + i, i % 90_000)) falseAlarms++;
  t.ok(falseAlarms < 300, `false alarms ${falseAlarms} of 300,000 (under 0.1%)`);
});

t.test('behavior: a new filter holds nothing, the order of a pair matters', async (t) => {
  const filter = createPairFilter();
  t.notOk(filter.mayHold(5, 9));
  filter.add(5, 9);
  t.ok(filter.mayHold(5, 9));
  t.notOk(filter.mayHold(9, 5));
});
