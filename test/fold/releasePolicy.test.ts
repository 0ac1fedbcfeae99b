// How the fold bounds its memory: commits sized from the measured growth of the map per event, the map released
// before a commit predicted to cross the budget, and at the latest after enough events.
import t from 'tap';
import { createReleasePolicy } from '../../engine/fold/createReleasePolicy.js';
import { MIN_MAP_BYTES } from '../../engine/limits.js';

const MiB = 1024 ** 2;

/** Runs commits of `events` each against a scripted resident memory; returns which ones released first. */
async function releases(
  policy: ReturnType<typeof createReleasePolicy>,
  commits: number,
  events: number,
): Promise<boolean[]> {
  const out: boolean[] = [];
  for (let i = 0; i < commits; i++) {
    let released = false;
    await policy.beforeCommit(events, async () => void (released = true));
    out.push(released);
  }
  return out;
}

t.test('default: released after the event count, counted across commits, then counted afresh', async (t) => {
  const policy = createReleasePolicy(100, Infinity, () => ({ rss: 0, mapped: 0 }));
  t.same(await releases(policy, 4, 40), [false, false, true, false]);
});

/** Commits of 1,000 events against scripted memory: the map grows 100 MiB a commit, a release takes it to 100 MiB. */
async function scripted(
  policy: ReturnType<typeof createReleasePolicy>,
  memory: { mapped: number },
  commits: number,
): Promise<boolean[]> {
  const released: boolean[] = [];
  for (let i = 0; i < commits; i++) {
    let r = false;
    await policy.beforeCommit(1000, async () => {
      r = true;
      memory.mapped = 100 * MiB;
    });
    released.push(r);
    memory.mapped += 100 * MiB;
  }
  return released;
}

t.test('behavior: released before the commit predicted to cross the budget, then commits sized to fit', async (t) => {
  // Heaps 200 MiB, budget 1,000 MiB: the map may reach 800 MiB.
  const memory = { mapped: 200 * MiB };
  const policy = createReleasePolicy(1_000_000, 1000 * MiB, () => ({
    rss: 200 * MiB + memory.mapped,
    mapped: memory.mapped,
  }));
  t.equal(policy.chunkEvents(), Infinity, 'no limit before any growth is measured');
  // Map readings 200, 300, ..., 700: at 600 the prediction is 600 + 1.5 x 100 = 750 MiB, at 700 it is 850: released.
  t.same(await scripted(policy, memory, 6), [false, false, false, false, false, true]);
  // What the budget leaves above the map's 100 MiB after the release, over the growth per event with its margin.
  t.equal(policy.chunkEvents(), Math.floor((700 * MiB) / ((1.5 * 100 * MiB) / 1000)));
});

t.test('behavior: heaps past the budget alone still leave the map MIN_MAP_BYTES between releases', async (t) => {
  // A release frees only the map's pages: releasing before every commit would free nothing more.
  const memory = { mapped: 100 * MiB };
  const policy = createReleasePolicy(1_000_000, 1000 * MiB, () => ({
    rss: 2000 * MiB + memory.mapped,
    mapped: memory.mapped,
  }));
  // The map may reach 100 + 256 MiB: at 300 the prediction is 450 MiB, so released; then again two commits later.
  t.same(await scripted(policy, memory, 5), [false, false, true, false, true]);
  // 256 MiB over 0.15 MiB an event is 1,706 events: less than the smallest commit, 2,000.
  t.ok(Math.floor(MIN_MAP_BYTES / ((1.5 * 100 * MiB) / 1000)) < 2000);
  t.equal(policy.chunkEvents(), 2000);
});

t.test('behavior: only the map counts as growth, not the heaps between their collections', async (t) => {
  // The heaps swing by 500 MiB a commit; the map does not grow: nothing is due before the event count.
  let commit = 0;
  const policy = createReleasePolicy(1_000_000, 1000 * MiB, () => ({
    rss: (commit++ % 2 === 0 ? 300 : 800) * MiB + 100 * MiB,
    mapped: 100 * MiB,
  }));
  t.same(await releases(policy, 6, 1000), [false, false, false, false, false, false]);
  t.equal(policy.chunkEvents(), Infinity, 'no growth measured: no limit');
});

t.test('behavior: an unbounded interval never releases, whatever the memory (a server holds the map)', async (t) => {
  const policy = createReleasePolicy(Infinity, 1);
  t.same(await releases(policy, 2, 1_000_000), [false, false]);
  t.equal(policy.chunkEvents(), Infinity);
});
