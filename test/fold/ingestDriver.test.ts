// The ingest driver's handling of batches in flight: the first failure, a commit's or an onBatch's, is the one
// reported, and no batch is prepared once it is known; a capture's frame is appended before any of its blocks is
// committed, or discarded. The runner and the log are stand-ins: the driver only sequences them.
import t from 'tap';
import type { BlockEvents } from '../../engine/chain/chainEvent.js';
import { createIngestDriver } from '../../engine/fold/createIngestDriver.js';
import type { BatchCommit, FoldRunner, PreparedBatch } from '../../engine/fold/createFoldRunner.js';
import type { EventLog } from '../../engine/log/eventLog.js';
import { BACKFILL_BEHIND_BLOCKS } from '../../engine/limits.js';
import { UNKNOWN_TARGET } from '../../engine/state/backfillRecord.js';

const BLOCKS = 20;
const blocks: BlockEvents[] = Array.from(
  { length: BLOCKS },
  (_, i) => ({ block: i + 1, ts: i + 1, hash: '0x', events: [{}] }) as unknown as BlockEvents,
);
const log = {
  read: function* () {
    yield* blocks;
  },
  head: () => ({ block: BLOCKS }),
} as unknown as EventLog;

/**
 * A runner whose `failAt`-th commit (1-based) fails once folded; it counts the batches it prepared and committed,
 * and records the backfills started and handed off. `block`: its cursor's.
 */
function standInRunner(failAt = Infinity, block = 0) {
  const seen = { prepared: 0, committed: 0, backfills: [] as number[], handOffs: 0 };
  let backfill: { target: number } | null = null;
  const runner = {
    cursor: () => ({ block }),
    backfill: () => backfill,
    startBackfill(target: number) {
      backfill ??= { target };
      seen.backfills.push(target);
    },
    async handOff() {
      if (backfill === null) return null;
      backfill = null;
      seen.handOffs++;
      return { positions: 0, seconds: 0, runFiles: 0 };
    },
    // Takes blocks as the real runner does: until the batch holds maxEvents events, a block at a time.
    prepareBatch(source: Iterator<BlockEvents>, maxEvents: number) {
      const summaries = [];
      let events = 0;
      for (let next = source.next(); !next.done; next = source.next()) {
        summaries.push({ block: next.value.block, events: next.value.events.length });
        events += next.value.events.length;
        if (events >= maxEvents) break;
      }
      if (summaries.length === 0) return null;
      seen.prepared++;
      return { blocks: summaries, eventCount: events } as unknown as PreparedBatch;
    },
    commitBatch(): BatchCommit {
      seen.committed++;
      const written =
        seen.committed === failAt ? Promise.reject(new Error(`commit ${failAt} failed`)) : Promise.resolve();
      written.catch(() => undefined);
      return { folded: Promise.resolve(), written };
    },
    releaseMappedState: async () => undefined,
    skipped: {},
    close: async () => undefined,
  } as unknown as FoldRunner;
  return { runner, seen };
}

t.test('default: every block is folded, a batch at a time, onBatch hearing each in order', async (t) => {
  const { runner, seen } = standInRunner();
  const heard: number[] = [];
  await createIngestDriver({ log, runner }).catchUp({
    batchEvents: 1,
    onBatch: (batch) => heard.push(...batch.map((b) => b.block)),
  });
  t.equal(seen.committed, BLOCKS);
  t.same(
    heard,
    blocks.map((b) => b.block),
  );
});

t.test('default: batches hold batchEvents events or more, whole blocks taken in order, the rest last', async (t) => {
  const { runner, seen } = standInRunner();
  const sizes: number[][] = [];
  await createIngestDriver({ log, runner }).catchUp({
    batchEvents: 3,
    onBatch: (batch) => sizes.push(batch.map((b) => b.block)),
  });
  t.equal(seen.prepared, 7);
  t.same(
    sizes.flat(),
    blocks.map((b) => b.block),
  );
  t.same(
    sizes.map((batch) => batch.length),
    [3, 3, 3, 3, 3, 3, 2],
  );
});

t.test('error: an onBatch that throws stops the fold with its error', async (t) => {
  const { runner, seen } = standInRunner();
  const driver = createIngestDriver({ log, runner });
  await t.rejects(
    driver.catchUp({
      batchEvents: 1,
      onBatch: () => {
        throw new Error('progress failed');
      },
    }),
    { message: 'progress failed' },
  );
  // The batch after the failing one may be in flight already; none after that.
  t.ok(seen.prepared <= 3, `${seen.prepared} batches prepared`);
  await t.rejects(driver.finish(), { message: 'progress failed' }, 'finish reports the same error');
});

t.test('error: a failed commit is the error reported, and no later batch is prepared', async (t) => {
  const { runner, seen } = standInRunner(3);
  const driver = createIngestDriver({ log, runner });
  await t.rejects(driver.catchUp({ batchEvents: 1 }), { message: 'commit 3 failed' });
  t.ok(seen.prepared <= 5, `${seen.prepared} batches prepared`);
  await t.rejects(driver.finish(), { message: 'commit 3 failed' });
});

/** A log whose one frame holds every block; `order` hears its appends and discards. */
function frameLog(order: string[]) {
  return {
    openFrame: () => ({
      header: { lastBlock: BLOCKS, blockCount: BLOCKS, eventCount: BLOCKS },
      blocks: (function* () {
        yield* blocks;
      })(),
      append: () => order.push('append'),
      discard: () => order.push('discard'),
    }),
  } as unknown as EventLog;
}

/** A runner that takes `perBatch` blocks a batch (as a release policy's limit would cut a frame); `order` hears it. */
function cuttingRunner(order: string[], perBatch: number, failAtBatch = Infinity) {
  let batches = 0;
  return {
    cursor: () => ({ block: 0 }),
    backfill: () => null,
    prepareBatch(source: Iterator<BlockEvents>) {
      const taken: number[] = [];
      for (let next = source.next(); !next.done; next = source.next()) {
        taken.push(next.value.block);
        if (taken.length === perBatch) break;
      }
      if (taken.length === 0) return null;
      if (++batches === failAtBatch) throw new Error(`derive ${batches} failed`);
      order.push(`prepare ${taken.join(',')}`);
      return { blocks: taken.map((block) => ({ block, events: 1 })), eventCount: taken.length } as PreparedBatch;
    },
    commitBatch(batch: PreparedBatch): BatchCommit {
      order.push(`commit ${batch.blocks.map((b) => b.block).join(',')}`);
      return { folded: Promise.resolve(), written: Promise.resolve() };
    },
    releaseMappedState: async () => undefined,
    skipped: {},
    close: async () => undefined,
  } as unknown as FoldRunner;
}

t.test('behavior: a frame cut into several commits is appended, once, before the first of them', async (t) => {
  const order: string[] = [];
  const driver = createIngestDriver({ log: frameLog(order), runner: cuttingRunner(order, 8) });
  const header = await driver.appendFrame(new Uint8Array());
  await driver.finish();
  t.equal(header.lastBlock, BLOCKS, 'answers the header');
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i).join(',');
  t.same(order, [
    `prepare ${range(1, 8)}`,
    'append',
    `commit ${range(1, 8)}`,
    `prepare ${range(9, 16)}`,
    `commit ${range(9, 16)}`,
    `prepare ${range(17, 20)}`,
    `commit ${range(17, 20)}`,
  ]);
});

t.test('error: a frame whose fold fails before its first commit is discarded, never appended', async (t) => {
  const order: string[] = [];
  const driver = createIngestDriver({ log: frameLog(order), runner: cuttingRunner(order, 30, 1) });
  await t.rejects(driver.appendFrame(new Uint8Array()), { message: 'derive 1 failed' });
  t.same(order, ['discard']);
});

t.test('behavior: an empty state or one far behind backfills, and hands off once near its source', async (t) => {
  const far = BACKFILL_BEHIND_BLOCKS + 1;
  {
    // Empty: backfills whatever the distance, and the catch-up, reaching the log's end, hands off.
    const { runner, seen } = standInRunner(Infinity, -1);
    await createIngestDriver({ log, runner }).catchUp();
    t.same(seen.backfills, [BLOCKS]);
    t.equal(seen.handOffs, 1);
  }
  {
    // Near: live.
    const { runner, seen } = standInRunner(Infinity, 5);
    const driver = createIngestDriver({ log, runner });
    await driver.aim(5 + BACKFILL_BEHIND_BLOCKS);
    t.same(seen.backfills, []);
    t.equal(await driver.handOffNear(5 + BACKFILL_BEHIND_BLOCKS), null);
  }
  {
    // Empty but near, told to backfill from nothing only when far: live.
    const { runner, seen } = standInRunner(Infinity, -1);
    await createIngestDriver({ log, runner }).aim(BACKFILL_BEHIND_BLOCKS - 1, { whenEmpty: false });
    t.same(seen.backfills, []);
  }
  {
    // Far: backfills; a hand-off is refused while the source is still far, made once near.
    const { runner, seen } = standInRunner(Infinity, 5);
    const driver = createIngestDriver({ log, runner });
    await driver.aim(5 + far);
    t.same(seen.backfills, [5 + far]);
    t.equal(await driver.handOffNear(5 + far), null, 'still far');
    t.equal(seen.handOffs, 0);
    t.ok(await driver.handOffNear(5 + far, 5 + far - BACKFILL_BEHIND_BLOCKS), 'near');
    t.equal(seen.handOffs, 1);
  }
  {
    // A source whose end is not known (a capture from a pipe): an empty state backfills, aimed at no block; a state
    // holding blocks folds live.
    const empty = standInRunner(Infinity, -1);
    await createIngestDriver({ log, runner: empty.runner }).aim(null);
    t.same(empty.seen.backfills, [UNKNOWN_TARGET]);
    const holding = standInRunner(Infinity, 5);
    await createIngestDriver({ log, runner: holding.runner }).aim(null);
    t.same(holding.seen.backfills, []);
  }
  {
    // A catch-up told to leave the backfill running (a source follows) does not hand off.
    const { runner, seen } = standInRunner(Infinity, -1);
    await createIngestDriver({ log, runner }).catchUp({ handOff: false });
    t.equal(seen.handOffs, 0);
    t.ok(runner.backfill());
  }
});
