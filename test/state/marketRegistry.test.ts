// The fold's market registry cache: a trim ages a cache grown past its limit (a record used since comes back, one
// left unused for a generation is dropped), but never drops the records of batches not yet written, which LMDB does
// not have yet (a later batch derived meanwhile must still see them).
import t from 'tap';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBlockWrites } from '../../engine/state/blockWrites.js';
import { createMarketRegistry } from '../../engine/state/createMarketRegistry.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { MARKET_CACHE_LIMIT } from '../../engine/limits.js';

t.test(
  'behavior: a trim keeps unwritten records, ages written ones, and drops those unused for a generation',
  async (t) => {
    const store = openStateStore({ dir: mkdtempSync(join(tmpdir(), 'tally-registry-')) });
    t.teardown(() => store.close());
    const registry = createMarketRegistry(store);
    const token = (i: number) => i.toString(16).padStart(64, '0');
    const record = (i: number) => ({ conditionId: '0x' + '1'.repeat(64), outcomeIndex: i % 2 });
    const first = registry.startBatch();
    registry.startBlock(createBlockWrites());
    // More than the cache's limit, none of them written to LMDB (this test never commits).
    const count = MARKET_CACHE_LIMIT + 5_000;
    for (let i = 0; i < count; i++) registry.putToken(token(i), record(i));
    registry.trim();
    t.same(registry.token(token(count - 1)), record(count - 1), 'unwritten: kept');
    registry.committed(first);
    registry.trim();
    // Written as far as the registry knows, so aged; LMDB does not have it here, so what is found came from the cache.
    t.same(registry.token(token(count - 1)), record(count - 1), 'written: found in the aged generation');
    const second = registry.startBatch();
    registry.startBlock(createBlockWrites());
    for (let i = count; i < 2 * count; i++) registry.putToken(token(i), record(i));
    registry.committed(second);
    registry.trim();
    t.same(registry.token(token(count - 1)), record(count - 1), 'used since the last trim: kept');
    t.equal(registry.token(token(0)), undefined, 'unused for a generation: dropped');
    registry.trim(true);
    t.equal(registry.token(token(count - 1)), undefined, 'an abandoned batch drops every generation');
  },
);
