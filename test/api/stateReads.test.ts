// The server learns the state's generation once a turn of the event loop: every request of a turn is answered from
// lmdb-js's one read transaction of that turn, so a commit shows from the next turn on, never later.
import t, { type Test } from 'tap';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStateReads } from '../../api/stateReads.js';
import { BACKFILL_KEY, encodeBackfillRecord } from '../../engine/state/backfillRecord.js';
import { openOffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { writeOffchain } from '../../engine/offchain/offchainWrites.js';
import { CURSOR_KEY, EMPTY_CURSOR, type FoldCursor } from '../../engine/state/foldCursor.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { encodeValue } from '../../engine/state/stateCodec.js';
import { createStateReader } from '../../engine/state/stateReader.js';

/** Past this turn's timers, lmdb-js's reset of its read transaction among them. */
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A new state and off-chain store, and the reads over them; both closed when the test ends. */
function openReads(t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'tally-reads-'));
  const store = openStateStore({ dir: join(dir, 'state') });
  const offchain = openOffchainStore({ dir: join(dir, 'offchain') });
  t.teardown(async () => {
    await store.close();
    await offchain.close();
  });
  return { store, offchain, reads: createStateReads(createStateReader(store), offchain) };
}

t.test('behavior: a commit changes the generation from the next turn on', async (t) => {
  const { store, reads } = openReads(t);
  const commit = (block: number) => {
    const cursor: FoldCursor = { ...EMPTY_CURSOR, block, events: block * 10, blocks: block };
    store.dbs.meta.putSync(CURSOR_KEY, encodeValue(cursor));
  };

  commit(1);
  await nextTurn();
  const first = reads.refresh();
  t.equal(reads.refresh(), first, 'the same turn, nothing committed: the same generation');
  commit(2);
  t.equal(reads.refresh(), first, 'a commit within the turn shows from the next');
  await nextTurn();
  const second = reads.refresh();
  t.not(second, first, 'the next turn reads the commit');
  await nextTurn();
  t.equal(reads.refresh(), second, 'nothing committed since: the same generation');
});

t.test('behavior: a backfill shows as of the turn the generation was read in', async (t) => {
  const { store, reads } = openReads(t);
  const record = { since: -1, positionsEmpty: true, target: 100, loading: -1, entries: 0 };

  reads.refresh();
  t.equal(reads.backfilling(), false, 'folding live');
  store.dbs.meta.putSync(BACKFILL_KEY, encodeBackfillRecord(record));
  reads.refresh();
  t.equal(reads.backfilling(), false, 'a backfill begun within the turn shows from the next');
  await nextTurn();
  reads.refresh();
  t.equal(reads.backfilling(), true, 'the next turn reads it');
  store.dbs.meta.removeSync(BACKFILL_KEY);
  await nextTurn();
  reads.refresh();
  t.equal(reads.backfilling(), false, 'and its hand-off');
});

t.test('behavior: a value made per generation is made once for it, and again once the generation moves', async (t) => {
  const { store, reads } = openReads(t);
  let made = 0;
  const make = () => ++made;

  reads.refresh();
  t.equal(reads.perGeneration('count', make), 1, 'made at its first ask');
  await nextTurn();
  reads.refresh();
  t.equal(reads.perGeneration('count', make), 1, 'a later turn of the same generation: kept');
  store.dbs.meta.putSync(CURSOR_KEY, encodeValue({ ...EMPTY_CURSOR, block: 5, events: 50, blocks: 5 }));
  await nextTurn();
  reads.refresh();
  t.equal(reads.perGeneration('count', make), 2, 'a commit moved the generation: made again');
});

t.test('behavior: a market metadata is read again after an off-chain change, not after a fold commit', async (t) => {
  const { store, offchain, reads } = openReads(t);
  const id = `0x${'ab'.repeat(32)}`;
  const describe = (question: string) =>
    writeOffchain(offchain, (writes) =>
      writes.put('metadata', id, encodeValue({ conditionId: id, question, outcomes: ['Yes', 'No'] })),
    );

  await describe('Will it rain?');
  await nextTurn();
  reads.refresh();
  const first = reads.market(id);
  t.equal(first.metadata?.question, 'Will it rain?');
  store.dbs.meta.putSync(CURSOR_KEY, encodeValue({ ...EMPTY_CURSOR, block: 7, events: 70, blocks: 7 }));
  await nextTurn();
  reads.refresh();
  t.equal(reads.market(id).metadata, first.metadata, 'a fold commit: the metadata read before is kept');
  await describe('Will it snow?');
  await nextTurn();
  reads.refresh();
  t.equal(reads.market(id).metadata?.question, 'Will it snow?', 'an off-chain change: read again');
});

t.test('behavior: two rollups at one block, on the same pair of tables again, are two generations', async (t) => {
  const { store, reads } = openReads(t);
  const rollUp = (generation: number, metadata: string) =>
    store.dbs.meta.putSync('board', encodeValue({ generation, block: 9, asOf: 90, metadata, wallets: 1, results: 1 }));

  rollUp(0, 'digest-a');
  await nextTurn();
  const first = reads.refresh();
  rollUp(1, 'digest-b');
  await nextTurn();
  const second = reads.refresh();
  rollUp(0, 'digest-c');
  await nextTurn();
  const third = reads.refresh();
  t.not(second, first, 'the other pair of tables');
  t.not(third, first, 'the first pair again, but of other metadata: not the first generation');
});
