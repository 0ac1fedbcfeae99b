// A folding process flushes its state once, at close; a marker of another boot (the machine went down
// mid-fold) discards the state, which is then folded again from the log.
import t from 'tap';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { currentBootId } from '../../engine/state/unflushedMarker.js';

const boot = currentBootId();

async function storeWithOneKey(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-flush-'));
  const store = openStateStore({ dir, flushOnClose: true });
  await store.dbs.meta.put('k', Buffer.from('v'));
  await store.close();
  return dir;
}

async function hasKey(dir: string): Promise<boolean> {
  const store = openStateStore({ dir, flushOnClose: true });
  const found = store.dbs.meta.getBinary('k') !== undefined;
  await store.close();
  return found;
}

t.test(
  'default: a closed store has flushed and left no marker',
  { skip: boot === null && 'no boot id here' },
  async (t) => {
    const dir = await storeWithOneKey();
    t.notOk(existsSync(join(dir, 'unflushed')));
    t.ok(await hasKey(dir));
  },
);

t.test(
  'behavior: a marker of this boot (a killed process) keeps the state',
  { skip: boot === null && 'no boot id here' },
  async (t) => {
    const dir = await storeWithOneKey();
    writeFileSync(join(dir, 'unflushed'), boot!);
    t.ok(await hasKey(dir));
  },
);

t.test(
  'behavior: a marker of another boot (the machine went down) discards the state',
  { skip: boot === null && 'no boot id here' },
  async (t) => {
    const dir = await storeWithOneKey();
    writeFileSync(join(dir, 'unflushed'), 'another-boot');
    t.notOk(await hasKey(dir));
    t.notOk(existsSync(join(dir, 'unflushed')), 'the new session flushed and cleared its own marker');
  },
);
