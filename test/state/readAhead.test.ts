// A store opened for random reads maps its file with MADV_RANDOM (LMDB's MDB_NORDAHEAD): a fault reads that page
// alone. The hand-off's scan of a whole table reopens it reading ahead, and the next plain reopen reads at random
// again. Linux shows the advice among a mapping's VmFlags (`rr`).
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStateStore } from '../../engine/state/openStateStore.js';

/** The VmFlags of this process's map of `file`, or null when none is mapped. */
function mapFlags(file: string): string[] | null {
  const smaps = readFileSync('/proc/self/smaps', 'latin1').split('\n');
  const at = smaps.findIndex((line) => line.endsWith(` ${file}`));
  if (at < 0) return null;
  const flags = smaps.slice(at + 1).find((line) => line.startsWith('VmFlags:'));
  return flags ? flags.slice('VmFlags:'.length).trim().split(/\s+/) : null;
}

t.test(
  'behavior: reopen({ readAhead }) reads ahead until the next reopen',
  { skip: !existsSync('/proc/self/smaps') && 'no /proc/self/smaps here' },
  async (t) => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tally-readahead-')));
    const file = join(dir, 'data.mdb');
    const store = openStateStore({ dir, randomReads: true });
    await store.dbs.meta.put('k', Buffer.from('v'));
    t.ok(mapFlags(file)?.includes('rr'), 'opened for random reads: MADV_RANDOM');
    await store.reopen({ readAhead: true });
    store.dbs.meta.getBinary('k');
    t.notOk(mapFlags(file)?.includes('rr'), 'reopened to read ahead');
    await store.reopen();
    store.dbs.meta.getBinary('k');
    t.ok(mapFlags(file)?.includes('rr'), 'a plain reopen reads at random again');
    await store.close();

    const plain = openStateStore({ dir });
    plain.dbs.meta.getBinary('k');
    t.notOk(mapFlags(file)?.includes('rr'), 'a store not opened for random reads reads ahead');
    await plain.close();
  },
);
