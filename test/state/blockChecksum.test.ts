// A block's checksum hashes its writes in one order (database name, then key) whichever way they arrive: as objects,
// or as entries in sorted runs split over wallet partitions (the workers' positions and index keys), placed among
// the other databases' writes by name.
import t from 'tap';
import { blockChecksum, writeEntryHead, type EntryRun } from '../../engine/state/blockChecksum.js';
import type { StateDbName } from '../../engine/state/stateDbNames.js';
import { marketWalletKey, positionKey } from '../../engine/state/stateKeys.js';
import type { StateWrite } from '../../engine/state/stateWrite.js';

/** The writes as entries, one buffer. */
function entries(writes: StateWrite[]): { bytes: Buffer; start: number; end: number } {
  const bytes = Buffer.alloc(writes.reduce((n, w) => n + 7 + w.db.length + w.key.length + w.value.length, 0));
  let at = 0;
  for (const write of writes) {
    at = writeEntryHead(bytes, at, write.db, write.key.length, write.value.length);
    at += bytes.write(write.key, at, 'latin1');
    at += write.value.copy(bytes, at);
  }
  return { bytes, start: 0, end: at };
}

const write = (db: StateDbName, key: string, value: string): StateWrite => ({ db, key, value: Buffer.from(value) });
const others = [
  write('tokens', 'f'.repeat(64), 'token'),
  write('markets', '0x' + 'a'.repeat(64), 'market'),
  write('fills', positionKey(0, 9).slice(4), 'fills'),
  write('marketMarks', '0x' + 'a'.repeat(64), 'marks'),
  write('pools', '0x' + 'b'.repeat(40), ''),
];
// Keys with bytes above 127, in two partitions whose keys interleave.
const positions = [0x10, 0x80, 0xff, 0x1_00, 0x80_00_00].map((wallet, i) =>
  write('positions', positionKey(wallet, 3 + i), `position ${i}`),
);
const indexKeys = [1, 0x90, 0x1_0000].map((wallet) => write('marketWallets', marketWalletKey(7, wallet), ''));

t.test('behavior: runs in parts hash as the same writes as objects', async (t) => {
  const asObjects = blockChecksum('0'.repeat(64), 42, [...others, ...positions, ...indexKeys]);
  const runs: EntryRun[] = [
    {
      db: 'positions',
      parts: [entries([positions[0]!, positions[2]!, positions[4]!]), entries([positions[1]!, positions[3]!])],
    },
    { db: 'marketWallets', parts: [entries(indexKeys), entries([])] },
  ];
  t.equal(blockChecksum('0'.repeat(64), 42, [...others], runs), asObjects);
  t.equal(
    blockChecksum('0'.repeat(64), 42, [...others], [{ db: 'positions', parts: [entries(positions)] }, runs[1]!]),
    asObjects,
    'one part',
  );
  t.not(blockChecksum('0'.repeat(64), 43, [...others], runs), asObjects, 'the block counts');
  t.not(blockChecksum('0'.repeat(64), 42, [...others], [runs[0]!]), asObjects, 'every write counts');
});
