// The off-chain store's one writer (engine/offchain/offchainWrites.ts): puts that change an entry move its group's
// digest and are logged, numbered from 1; a put of the bytes held changes nothing; the kept digests equal a
// recomputation over the tables, whatever order the entries came in; a store written before the log logs what it
// holds at its first write.
import t from 'tap';
import { addApiKey, revokeApiKey } from '../../engine/offchain/apiKeys.js';
import { digestHex, PROFILES_SOURCE_KEY } from '../../engine/offchain/offchainDigest.js';
import {
  computeOffchainDigests,
  lastChangeSeq,
  readChangesAfter,
  readOffchainDigests,
  writeOffchain,
} from '../../engine/offchain/offchainWrites.js';
import { openOffchainStore, readOffchainRevision } from '../../engine/offchain/openOffchainStore.js';
import { encodeValue } from '../../engine/state/stateCodec.js';
import { processTempDir } from '../fixtures/processTempDir.js';

const KEY = `svc_${'ab'.repeat(24)}`;
const entries: Array<['metadata' | 'profiles', string, Buffer]> = [
  ['metadata', `0x${'1'.repeat(64)}`, encodeValue({ question: 'One?' })],
  ['metadata', `0x${'2'.repeat(64)}`, encodeValue({ question: 'Two?' })],
  ['profiles', `0x${'3'.repeat(40)}`, encodeValue({ name: 'Three' })],
];

t.test(
  'default: changes are logged in order, moving digests and the revision; an equal put changes nothing',
  async (t) => {
    const store = openOffchainStore({ dir: processTempDir('tally-offchain-') });
    t.teardown(() => store.close());
    const empty = readOffchainDigests(store);
    t.same(Object.values(empty), [0n, 0n, 0n], 'an empty store digests to zeros');
    const changed = await writeOffchain(store, (writes) =>
      entries.map(([table, key, value]) => writes.put(table, key, value)),
    );
    t.same(changed, [true, true, true]);
    t.equal(lastChangeSeq(store), 3);
    t.same(
      readChangesAfter(store, 1, 10).map((c) => [c.seq, c.table, c.key, c.value]),
      entries.slice(1).map(([table, key, value], i) => [i + 2, table, key, value]),
      'the changes after the first, as written',
    );
    const revision = readOffchainRevision(store);
    const digests = readOffchainDigests(store);
    t.not(digests.metadata, 0n);
    t.not(digests.profiles, 0n);
    t.equal(digests.keys, 0n, 'a group nothing was put in keeps its digest');
    const again = await writeOffchain(store, (writes) => writes.put(...entries[0]!));
    t.equal(again, false, 'the bytes held already');
    t.equal(lastChangeSeq(store), 3, 'log nothing');
    t.equal(readOffchainRevision(store), revision, 'and leave the revision');

    t.ok(await addApiKey(store, KEY, 100));
    await revokeApiKey(store, KEY, 200);
    t.equal(lastChangeSeq(store), 5, 'a key and its revocation are two changes');
    t.same(readOffchainDigests(store), computeOffchainDigests(store), 'the kept digests are the tables');
  },
);

t.test('behavior: the same entries in another order, with an overwrite on the way, digest alike', async (t) => {
  const first = openOffchainStore({ dir: processTempDir('tally-offchain-') });
  const second = openOffchainStore({ dir: processTempDir('tally-offchain-') });
  t.teardown(async () => {
    await first.close();
    await second.close();
  });
  await writeOffchain(first, (writes) => {
    for (const entry of entries) writes.put(...entry);
  });
  await writeOffchain(second, (writes) => {
    writes.put('metadata', entries[0]![1], encodeValue({ question: 'Earlier?' }));
    for (const entry of [...entries].reverse()) writes.put(...entry);
  });
  t.same(readOffchainDigests(first), readOffchainDigests(second));
  t.same(readOffchainDigests(second), computeOffchainDigests(second));
  await writeOffchain(second, (writes) => writes.put('meta', PROFILES_SOURCE_KEY, encodeValue('profiles.json')));
  t.not(
    digestHex(readOffchainDigests(second).profiles),
    digestHex(readOffchainDigests(first).profiles),
    'a loaded profile source is part of the profiles digest',
  );
  await t.rejects(
    async () => writeOffchain(second, (writes) => writes.put('meta', 'revision', encodeValue(1))),
    /does not travel/,
    'no other meta key is written through it',
  );
});

t.test('behavior: a store written before the change log logs what it holds at its first write', async (t) => {
  const dir = processTempDir('tally-offchain-');
  const old = openOffchainStore({ dir });
  await old.env.transaction(() => {
    for (const [table, key, value] of entries) old[table].put(key, value);
  });
  await old.close();
  const store = openOffchainStore({ dir });
  t.teardown(() => store.close());
  t.same(readOffchainDigests(store), computeOffchainDigests(store), 'digests computed from the tables meanwhile');
  t.ok(await addApiKey(store, KEY, 100));
  t.same(
    readChangesAfter(store, 0, 10).map((c) => c.key),
    [...entries.map(([, key]) => key).sort(), expectHash(store)],
    'the held entries first (table by table, in key order), then the new key',
  );
  t.same(readOffchainDigests(store), computeOffchainDigests(store));
});

/** The stored id of the one key. */
function expectHash(store: ReturnType<typeof openOffchainStore>): string {
  return [...store.keys.getKeys({})][0]!;
}
