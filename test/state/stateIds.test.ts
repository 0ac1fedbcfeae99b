// The state's ids: numbered in the order the fold first stores a text, each definition written once with the
// block that named it; a resumed process finds the committed ones and numbers on from the committed counts; an
// abandoned batch's ids are forgotten; a cache trimmed to its limit answers the same ids.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import { createBlockWrites } from '../../engine/state/blockWrites.js';
import { createStateIds } from '../../engine/state/createStateIds.js';
import { openStateStore, putStateWrite } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';

const wallet = (n: number) => '0x' + n.toString(16).padStart(40, '0');
const token = (n: number) => n.toString(16).padStart(64, '0');

t.test('behavior: first-seen numbering, definitions once, resume and reset', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-ids-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = openStateStore({ dir });
  const ids = createStateIds(store, [0, 0, 0]);
  const writes = createBlockWrites();
  t.same(
    [wallet(9), wallet(3), wallet(9)].map((text) => ids.id(ID_SPACE.address, text, writes)),
    [0, 1, 0],
    'in the order first stored',
  );
  t.equal(ids.id(ID_SPACE.token, token(9), writes), 0, 'each space numbers on its own');
  const written = writes.finish();
  t.same(
    written.map((write) => write.db).sort(),
    ['ids', 'ids', 'ids', 'idsByValue', 'idsByValue', 'idsByValue'],
    'one definition each way per new id',
  );
  store.env.transactionSync(() => {
    for (const { db, key, value } of written) putStateWrite(store, db, key, value);
  });
  t.same(ids.counts(), [2, 1, 0]);

  const resumed = createStateIds(store, [2, 1, 0]);
  const later = createBlockWrites();
  t.equal(resumed.id(ID_SPACE.address, wallet(3), later), 1, 'a resumed process finds a committed id');
  t.equal(resumed.id(ID_SPACE.address, wallet(4), later), 2, 'and numbers on from the committed counts');
  resumed.reset([2, 1, 0]);
  t.equal(resumed.id(ID_SPACE.address, wallet(5), createBlockWrites()), 2, "an abandoned batch's id is numbered again");
  t.same(later.finish().length, 2, 'only the new id was defined');
  await store.close();
});

t.test('behavior: a trimmed cache keeps uncommitted ids and finds committed ones in the state', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-ids-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = openStateStore({ dir });
  t.teardown(() => store.close());
  const ids = createStateIds(store, [0, 0, 0], 2);
  const first = createBlockWrites();
  for (const n of [1, 2, 3]) ids.id(ID_SPACE.address, wallet(n), first);
  store.env.transactionSync(() => {
    for (const { db, key, value } of first.finish()) putStateWrite(store, db, key, value);
  });
  // Committed: ids 0..2. Uncommitted: 3 and 4, which the state lacks.
  const second = createBlockWrites();
  t.same(
    [4, 5].map((n) => ids.id(ID_SPACE.address, wallet(n), second)),
    [3, 4],
  );
  // Reads of the state by value, counted.
  const getBinary = store.dbs.idsByValue.getBinary.bind(store.dbs.idsByValue);
  let reads = 0;
  store.dbs.idsByValue.getBinary = (key) => {
    reads++;
    return getBinary(key);
  };
  t.equal(ids.id(ID_SPACE.address, wallet(7), createBlockWrites()), 5, 'untrimmed: a new text');
  t.equal(reads, 0, 'needs no read');
  ids.reset([3, 0, 0]);
  ids.id(ID_SPACE.address, wallet(4), second);
  ids.id(ID_SPACE.address, wallet(5), second);
  ids.trim([3, 0, 0]);
  const third = createBlockWrites();
  t.same(
    [5, 4, 1, 3, 6].map((n) => ids.id(ID_SPACE.address, wallet(n), third)),
    [4, 3, 0, 2, 5],
    'the same ids after the trim: uncommitted from the cache, committed from the state, a new one numbered next',
  );
  t.equal(reads, 3, 'the trimmed texts and the new one were read for');
  t.same(third.finish().filter((write) => write.db === 'ids').length, 1, 'only the new id was defined');
});

t.test('behavior: the reader finds fills by the texts, and knows nothing of texts never stored', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-ids-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = openStateStore({ dir });
  t.teardown(() => store.close());
  const reader = createStateReader(store);
  t.same([...reader.walletFills(wallet(1))], [], 'an unknown wallet has no fills');
  t.same([...reader.walletFills('not a wallet')], [], 'nor does a malformed one');
  t.same([...reader.marketFills(token(1))], [], 'an unknown token market has none');
});
