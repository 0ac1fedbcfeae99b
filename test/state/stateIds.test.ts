// The state's ids: numbered in the order the fold first stores a text, each definition written once with the
// block that named it; a resumed process finds the committed ones and numbers on from the committed counts; an
// abandoned batch's ids are forgotten; a cache trimmed to its limit answers the same ids, found through the log's
// dictionary without a read of the state.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ID_SPACE, IdDictionary, type IdSpace } from '../../engine/log/idDictionary.js';
import { createBlockWrites, type BlockWrites } from '../../engine/state/blockWrites.js';
import { createStateIds } from '../../engine/state/createStateIds.js';
import { openStateStore, putStateWrite, type StateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';

const wallet = (n: number) => '0x' + n.toString(16).padStart(40, '0');
const token = (n: number) => n.toString(16).padStart(64, '0');

/** A log's dictionary naming `texts` of a space, in order. */
function logNaming(space: IdSpace, texts: string[]): IdDictionary {
  const log = new IdDictionary();
  for (const text of texts) log.intern(space, text);
  return log;
}

function commit(store: StateStore, writes: BlockWrites): void {
  store.env.transactionSync(() => {
    for (const { db, key, value } of writes.finish()) putStateWrite(store, db, key, value);
  });
}

t.test('behavior: first-seen numbering, definitions once, resume and reset', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-ids-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = openStateStore({ dir });
  const log = logNaming(ID_SPACE.address, [wallet(3), wallet(9), wallet(4), wallet(5)]);
  const ids = createStateIds(store, [0, 0, 0], log);
  const writes = createBlockWrites();
  t.same(
    [wallet(9), wallet(3), wallet(9)].map((text) => ids.id(ID_SPACE.address, text, writes)),
    [0, 1, 0],
    "in the order first stored (not the log's)",
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

  const resumed = createStateIds(store, [2, 1, 0], log);
  const later = createBlockWrites();
  t.equal(resumed.id(ID_SPACE.address, wallet(3), later), 1, 'a resumed process finds a committed id');
  t.equal(resumed.id(ID_SPACE.token, token(9), later), 0, 'one the log never named too');
  t.equal(resumed.id(ID_SPACE.address, wallet(4), later), 2, 'and numbers on from the committed counts');
  resumed.reset([2, 1, 0]);
  t.equal(resumed.id(ID_SPACE.address, wallet(5), createBlockWrites()), 2, "an abandoned batch's id is numbered again");
  t.same(later.finish().length, 2, 'only the new id was defined');
  await store.close();
});

t.test(
  'behavior: ids are found without reading the state, through trims, texts the log names late, and cuts',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-ids-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const store = openStateStore({ dir });
    t.teardown(() => store.close());
    let reads = 0;
    const getBinary = store.dbs.idsByValue.getBinary.bind(store.dbs.idsByValue);
    store.dbs.idsByValue.getBinary = (key) => {
      reads++;
      return getBinary(key);
    };
    const log = logNaming(ID_SPACE.token, [1, 2, 3, 4, 5, 6, 7].map(token));
    // A cache of 2: every trim moves committed texts the log names out of it.
    const ids = createStateIds(store, [0, 0, 0], log, 2);
    const first = createBlockWrites();
    // Token 100 is derived (the log never names it): it stays in the cache through trims.
    t.same(
      [1, 100, 2, 3].map((n) => ids.id(ID_SPACE.token, token(n), first)),
      [0, 1, 2, 3],
    );
    commit(store, first);
    ids.trim([0, 4, 0]);
    const second = createBlockWrites();
    t.same(
      [3, 100, 1, 4, 5].map((n) => ids.id(ID_SPACE.token, token(n), second)),
      [3, 1, 0, 4, 5],
      'committed ids found again after the trim, new ones numbered next',
    );
    // The log names token 100 at last; it keeps its state id.
    log.intern(ID_SPACE.token, token(100));
    commit(store, second);
    ids.trim([0, 6, 0]);
    const third = createBlockWrites();
    t.same(
      [100, 5, 6, 2].map((n) => ids.id(ID_SPACE.token, token(n), third)),
      [1, 5, 6, 2],
    );
    t.same(third.finish().filter((write) => write.db === 'ids').length, 1, 'only token 6 was defined');
    ids.reset([0, 6, 0]);

    // A resumed process, and the same one after the log was cut back (its ids renumbered): the same state ids, the
    // texts looked up after the cut found through the log's new numbering.
    const resumed = createStateIds(store, [0, 6, 0], log, 2);
    const lookUp = (ns: number[]) => ns.map((n) => resumed.id(ID_SPACE.token, token(n), createBlockWrites()));
    t.same(lookUp([100, 1, 2]), [1, 0, 2], 'resumed');
    resumed.trim([0, 6, 0]);
    log.truncate([0, 2, 0]);
    for (const n of [5, 4, 3, 2, 100]) log.intern(ID_SPACE.token, token(n));
    t.same(lookUp([3, 4, 5, 100, 1, 2]), [3, 4, 5, 1, 0, 2], 'after a cut of the log');
    t.equal(resumed.id(ID_SPACE.token, token(7), createBlockWrites()), 6, 'a new text numbered next');
    t.equal(reads, 0, 'idsByValue never read');
  },
);

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
