// The eth_getLogs range: halves on refusal, doubles after light answers up to the ceiling a halving set, and
// lifts that ceiling after enough good answers.
import t from 'tap';
import { createAdaptiveRange } from '../../replay/source/adaptiveRange.js';

t.test('default: starts at 2,000 blocks, doubles after light answers, up to the maximum', async (t) => {
  const range = createAdaptiveRange({ max: 10_000 });
  t.equal(range.size(), 2_000);
  range.succeed(10);
  t.equal(range.size(), 4_000);
  range.succeed(10);
  range.succeed(10);
  t.equal(range.size(), 10_000);
  range.succeed(5_000);
  t.equal(range.size(), 10_000, 'a heavy answer does not grow it');
});

t.test('behavior: a refusal halves and caps growth until the ceiling settles', async (t) => {
  const range = createAdaptiveRange({ initial: 4_000, settle: 3 });
  t.ok(range.shrink(4_000));
  t.equal(range.size(), 2_000);
  range.succeed(0);
  t.equal(range.size(), 2_000, 'not back to the range that failed');
  range.succeed(0);
  range.succeed(0);
  t.equal(range.size(), 4_000, 'the ceiling lifts after 3 good answers');
});

t.test('behavior: too many logs means halving; one block cannot be halved', async (t) => {
  const range = createAdaptiveRange({ logCap: 100 });
  t.ok(range.isTooMany(100, 10));
  t.notOk(range.isTooMany(99, 10));
  t.notOk(range.isTooMany(500, 1), 'a single block is taken as it is');
  t.ok(range.shrink(3));
  t.equal(range.size(), 1);
  t.notOk(range.shrink(1));
});
