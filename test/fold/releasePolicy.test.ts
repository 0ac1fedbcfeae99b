// How the fold bounds its memory: commits sized from the measured growth per event, the map released before a
// commit predicted to cross the budget, and at the latest after enough events.
import t from 'tap';
import type { BlockEvents } from '../../engine/chain/chainEvent.js';
import { commitChunks, createReleasePolicy } from '../../engine/fold/createReleasePolicy.js';

const MiB = 1024 ** 2;

/** Runs commits of `events` each against a scripted resident memory; returns which ones released first. */
async function releases(policy: ReturnType<typeof createReleasePolicy>, commits: number, events: number): Promise<boolean[]> {
  const out: boolean[] = [];
  for (let i = 0; i < commits; i++) {
    let released = false;
    await policy.beforeCommit(events, async () => void (released = true));
    out.push(released);
  }
  return out;
}

t.test('default: released after the event count, counted across commits, then counted afresh', async (t) => {
  const policy = createReleasePolicy(100, Infinity, () => 0);
  t.same(await releases(policy, 4, 40), [false, false, true, false]);
});

t.test('behavior: past the memory budget every commit releases first', async (t) => {
  const policy = createReleasePolicy(1_000_000, 1, () => 100);
  t.same(await releases(policy, 2, 1), [true, true]);
});

t.test('behavior: released before the commit predicted to cross the budget, then commits sized to fit', async (t) => {
  // Resident memory: 100 MiB more per commit of 1,000 events, budget 1,000 MiB; a release brings it back to
  // 300 MiB.
  let rss = 400 * MiB;
  const policy = createReleasePolicy(1_000_000, 1000 * MiB, () => rss);
  t.equal(policy.chunkEvents(), Infinity, 'no limit before any growth is measured');
  const released: boolean[] = [];
  for (let i = 0; i < 6; i++) {
    let r = false;
    await policy.beforeCommit(1000, async () => {
      r = true;
      rss = 300 * MiB;
    });
    released.push(r);
    rss += 100 * MiB;
  }
  // Readings 400, 500, ..., 900: at 800 the prediction is 800 + 1.5 x 100 = 950 MiB, at 900 it is 1,050: released.
  t.same(released, [false, false, false, false, false, true]);
  // What the budget leaves above 300 MiB, over the growth per event with its margin.
  t.equal(policy.chunkEvents(), Math.floor((700 * MiB) / ((1.5 * 100 * MiB) / 1000)));
});

t.test('behavior: an unbounded interval never releases, whatever the memory (a server holds the map)', async (t) => {
  const policy = createReleasePolicy(Infinity, 1);
  t.same(await releases(policy, 2, 1_000_000), [false, false]);
  t.equal(policy.chunkEvents(), Infinity);
});

t.test('behavior: chunks hold whole blocks, at most the limit each unless one block alone is larger', async (t) => {
  const block = (n: number, events: number) => ({ block: n, ts: n, hash: '0x', events: new Array(events).fill(null) }) as BlockEvents;
  const blocks = [block(1, 3), block(2, 3), block(3, 10), block(4, 1), block(5, 1)];
  const sizes = [...commitChunks(blocks, () => 6)].map((chunk) => chunk.map((b) => b.block));
  t.same(sizes, [[1, 2], [3], [4, 5]]);
});
