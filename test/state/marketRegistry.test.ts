// The fold's market registry cache: a trim empties a cache grown past its limit, but never drops the records of
// batches not yet written, which LMDB does not have yet (a later batch derived meanwhile must still see them).
import t from 'tap';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBlockWrites } from '../../engine/state/blockWrites.js';
import { createMarketRegistry } from '../../engine/state/createMarketRegistry.js';
import { openStateStore } from '../../engine/state/openStateStore.js';

t.test('behavior: a trim keeps unwritten records and drops written ones', async (t) => {
  const store = openStateStore({ dir: mkdtempSync(join(tmpdir(), 'tally-registry-')) });
  t.teardown(() => store.close());
  const registry = createMarketRegistry(store);
  const token = (i: number) => i.toString(16).padStart(64, '0');
  const batch = registry.startBatch();
  registry.startBlock(createBlockWrites());
  // More than the cache's limit, none of them written to LMDB (this test never commits).
  for (let i = 0; i < 25_000; i++)
    registry.putToken(token(i), { conditionId: '0x' + '1'.repeat(64), outcomeIndex: i % 2 });
  registry.trim();
  t.same(registry.token(token(24_999)), { conditionId: '0x' + '1'.repeat(64), outcomeIndex: 1 }, 'unwritten: kept');
  registry.committed(batch);
  registry.trim();
  // Written as far as the registry knows, so dropped; LMDB does not have it here, which shows it was dropped.
  t.equal(registry.token(token(24_999)), undefined, 'written: dropped from the cache');
});
