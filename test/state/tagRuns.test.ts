// The latest tag run's number, which the server reads on every request: kept beside the runs (one read, no range
// iterator), the largest run whatever order runs are written in, and found in the table for a state whose runs
// were written before that number was kept.
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { putTagRun, readLatestTagRun, readLatestTagRunNumber, type TagRun } from '../../engine/state/tagRuns.js';

const run = (number: number): TagRun => ({
  run: number,
  rulesVersion: 1,
  windowStart: '2026-11-01T00:00:00.000Z',
  windowEnd: '2026-11-08T00:00:00.000Z',
  computedAt: '2026-11-08T00:00:00.000Z',
  count: 0,
  tags: {},
});

t.test('behavior: the largest run, read without a range', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-tag-runs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = openStateStore({ dir });
  t.equal(readLatestTagRunNumber(store), null, 'none before the first run');
  putTagRun(store, run(20_400), null);
  putTagRun(store, run(20_401), null);
  // A run of an earlier day written later (a fold that stopped on it) does not hide the latest.
  putTagRun(store, run(20_399), null);
  t.equal(readLatestTagRunNumber(store), 20_401);
  t.equal(readLatestTagRun(store)?.run, 20_401);
  t.equal(store.dbs.meta.getBinary('latestTagRun')?.readUInt32BE(0), 20_401, 'kept in meta');
  // A state written before the number was kept: the table's last key.
  store.env.transactionSync(() => void store.dbs.meta.remove('latestTagRun'));
  t.equal(readLatestTagRunNumber(store), 20_401);
  await store.close();
});
