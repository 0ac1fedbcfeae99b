// Block records: 72 bytes that give back the record, and a record that is not hex is refused, not stored cut.
import t from 'tap';
import { decodeBlockRecord, encodeBlockRecord } from '../../engine/state/foldCursor.js';

const record = {
  block: 4_000_000_123,
  ts: 1_760_000_000,
  hash: '0x' + 'ab'.repeat(32),
  checksum: 'cd'.repeat(32),
  events: 70_000,
};

t.test('behavior: a record round-trips in 72 bytes', async (t) => {
  const bytes = encodeBlockRecord(record);
  t.equal(bytes.length, 72);
  t.same(decodeBlockRecord(record.block, bytes), record);
});

t.test('error: a hash or checksum that is not 32 bytes of hex is refused', async (t) => {
  t.throws(() => encodeBlockRecord({ ...record, hash: '0x' + 'ab'.repeat(31) }), /hash .* is not 32 bytes of hex/);
  t.throws(() => encodeBlockRecord({ ...record, checksum: 'zz'.repeat(32) }), /checksum .* is not 32 bytes of hex/);
});
