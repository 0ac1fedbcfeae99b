// The server learns the state's generation once a turn of the event loop: every request of a turn is answered from
// lmdb-js's one read transaction of that turn, so a commit shows from the next turn on, never later.
import t from 'tap';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStateReads } from '../../api/stateReads.js';
import { BACKFILL_KEY, encodeBackfillRecord } from '../../engine/state/backfillRecord.js';
import { openOffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { CURSOR_KEY, EMPTY_CURSOR, type FoldCursor } from '../../engine/state/foldCursor.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { encodeValue } from '../../engine/state/stateCodec.js';
import { createStateReader } from '../../engine/state/stateReader.js';

/** Past this turn's timers, lmdb-js's reset of its read transaction among them. */
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

t.test('behavior: a commit changes the generation from the next turn on', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-reads-'));
  const store = openStateStore({ dir: join(dir, 'state') });
  const offchain = openOffchainStore({ dir: join(dir, 'offchain') });
  const reads = createStateReads(createStateReader(store), offchain);
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

  await store.close();
  await offchain.close();
});

t.test('behavior: a backfill shows as of the turn the generation was read in', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-reads-'));
  const store = openStateStore({ dir: join(dir, 'state') });
  const offchain = openOffchainStore({ dir: join(dir, 'offchain') });
  const reads = createStateReads(createStateReader(store), offchain);
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

  await store.close();
  await offchain.close();
});
