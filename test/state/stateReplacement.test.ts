// A state is replaced whole (replaceState) while a store maps it: the store follows at its next check and reads
// the new state, its reader forgets the ids it cached of the old one, a scan open over the old map ends with an
// error; a mark no file matches (a rewind killed before its move) is ignored.
import t from 'tap';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import { openStateStore, putStateWrite } from '../../engine/state/openStateStore.js';
import { replaceState } from '../../engine/state/replaceState.js';
import { idKey } from '../../engine/state/stateKeys.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { isStateReplaced, REPLACED_BY_KEY } from '../../engine/state/stateReplacement.js';

const wallet = (digit: string) => '0x' + digit.repeat(40);

/** A state whose address ids 0..count-1 name `digit` wallets, and a meta key saying which it is. */
async function writeState(dir: string, digit: string, count: number): Promise<void> {
  const store = openStateStore({ dir });
  await store.env.transaction(() => {
    for (let id = 0; id < count; id++)
      putStateWrite(store, 'ids', idKey(ID_SPACE.address, id), Buffer.from(wallet(digit).slice(2), 'hex'));
    putStateWrite(store, 'meta', 'which', Buffer.from(digit));
  });
  await store.close();
}

/** A state directory in a new root, written by writeState and opened as a server opens it. */
async function openWritten(t: { teardown(fn: () => Promise<void>): void }, count: number) {
  const root = mkdtempSync(join(tmpdir(), 'tally-replace-'));
  const dir = join(root, 'state');
  await writeState(dir, 'a', count);
  const store = openStateStore({ dir });
  t.teardown(() => store.close());
  return { root, dir, store };
}

t.test('behavior: a mapped state follows its replacement at the next check', async (t) => {
  const { root, dir, store } = await openWritten(t, 3);
  const reader = createStateReader(store);
  t.equal(reader.idText(ID_SPACE.address, 0), wallet('a'));
  const scan = store.dbs.ids.getRange({})[Symbol.iterator]();
  scan.next();
  t.equal(reader.followRewind(), 1, 'nothing to follow');

  const next = join(root, 'next');
  await writeState(next, 'b', 3);
  mkdirSync(join(root, 'aside'));
  await replaceState(dir, next, join(root, 'aside', 'old'));
  t.notOk(existsSync(next), 'moved in');
  t.equal(store.dbs.meta.getBinary('which')?.toString(), 'a', 'until the check, the old state');
  t.equal(reader.followRewind(), 2, 'followed: a new opening');
  t.equal(store.dbs.meta.getBinary('which')?.toString(), 'b');
  t.equal(reader.idText(ID_SPACE.address, 0), wallet('b'), 'no id text of the old state');
  t.equal(reader.followRewind(), 2, 'followed once');
  // lmdb-js closes the old environment once its pending reads are done.
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.throws(() => {
    for (let step = scan.next(); !step.done; step = scan.next());
  }, 'a scan over the old map ends with an error');
});

t.test('behavior: a mark no file matches changes nothing', async (t) => {
  const { dir, store } = await openWritten(t, 1);
  // What a rewind killed between marking the state and moving the new one in leaves behind.
  store.dbs.meta.putSync(REPLACED_BY_KEY, Buffer.from('1:2', 'latin1'));
  t.notOk(isStateReplaced(store.dbs.meta, dir));
  t.notOk(store.followReplacement());
  t.equal(store.opened, 1);
  t.equal(store.dbs.meta.getBinary('which')?.toString(), 'a');
});
