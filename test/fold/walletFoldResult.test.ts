// The wallet worker's answer: per block, its position writes (binary keys, values of any length) and new index
// keys come back in order, byte for byte; a cut answer is refused.
import t from 'tap';
import { createWalletFoldResult, readWalletFoldResult } from '../../engine/fold/walletFoldTask.js';
import { marketWalletKey, positionKey } from '../../engine/state/stateKeys.js';

t.test('behavior: blocks, positions and index keys round-trip', async (t) => {
  const writer = createWalletFoldResult();
  const value = (n: number) => Buffer.alloc(n, n & 255);
  // Keys with bytes above 127: they must come back as the same latin1 characters.
  const first = [
    { key: positionKey(1, 0xfffe), value: value(41) },
    { key: positionKey(0x80ff00, 3), value: value(300) },
  ];
  writer.block(7, first, [marketWalletKey(9, 1)]);
  // Enough to outgrow the first buffer.
  const many = Array.from({ length: 2000 }, (_, i) => ({ key: positionKey(i, i + 1), value: value(60 + (i % 50)) }));
  writer.block(8, many, []);
  const read = [...readWalletFoldResult(writer.take())];
  t.same(
    read.map((entry) => entry.block),
    [7, 8],
  );
  t.same(
    read[0]!.writes.map((write) => [write.db, write.key, write.value.toString('hex')]),
    [
      ['positions', first[0]!.key, first[0]!.value.toString('hex')],
      ['positions', first[1]!.key, first[1]!.value.toString('hex')],
      ['marketWallets', marketWalletKey(9, 1), ''],
    ],
  );
  t.ok(
    read[1]!.writes.every((write, i) => write.key === many[i]!.key && write.value.equals(many[i]!.value)),
    'every position of the large block',
  );
  t.equal(writer.take().byteLength, 0, 'take empties the writer');
});

t.test('error: a cut answer is refused', async (t) => {
  const writer = createWalletFoldResult();
  writer.block(7, [{ key: positionKey(1, 2), value: Buffer.alloc(20) }], []);
  const answer = writer.take();
  t.throws(() => [...readWalletFoldResult(answer.subarray(0, answer.byteLength - 1))], /runs past the end/);
});
