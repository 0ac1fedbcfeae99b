// The wallet worker's answer: per block, its position writes (binary keys, values written in place) and new index
// keys come back in order, byte for byte; a block with no position leaves no entry; a cut answer is refused.
import t from 'tap';
import { createWalletFoldResult, readWalletFoldResult } from '../../engine/fold/walletFoldTask.js';
import { marketWalletKey, positionKey } from '../../engine/state/stateKeys.js';
import { createPosition, type Position } from '../../engine/reducers/position.js';
import { encodePosition } from '../../engine/state/stateCodec.js';

/** A position whose numbers take every width (small, 16-bit, 32-bit, beyond, negative). */
function position(n: number): Position {
  const p = createPosition();
  p.shares = n * 1_000_003;
  p.costBasis = n * 7;
  p.realizedPnl = -n * 123_456_789_013;
  p.fills = n & 255;
  p.firstTradeAt = 1_700_000_000 + n;
  return p;
}

t.test('behavior: blocks, positions and index keys round-trip', async (t) => {
  const writer = createWalletFoldResult();
  // Keys with bytes above 127: they must come back as the same latin1 characters.
  const first = [
    { key: positionKey(1, 0xfffe), position: position(41) },
    { key: positionKey(0x80ff00, 3), position: position(300) },
  ];
  writer.startBlock(7);
  for (const { key, position } of first) writer.position(key, position);
  writer.indexKey(marketWalletKey(9, 1));
  writer.endBlock();
  // A block with nothing stored leaves no entry.
  writer.startBlock(8);
  writer.endBlock();
  // Enough to outgrow the first buffer.
  const many = Array.from({ length: 2000 }, (_, i) => ({ key: positionKey(i, i + 1), position: position(i) }));
  writer.startBlock(9);
  for (const { key, position } of many) writer.position(key, position);
  writer.endBlock();
  const read = [...readWalletFoldResult(writer.take())];
  t.same(
    read.map((entry) => entry.block),
    [7, 9],
  );
  t.same(
    read[0]!.writes.map((write) => [write.db, write.key, write.value.toString('hex')]),
    [
      ['positions', first[0]!.key, encodePosition(first[0]!.position).toString('hex')],
      ['positions', first[1]!.key, encodePosition(first[1]!.position).toString('hex')],
      ['marketWallets', marketWalletKey(9, 1), ''],
    ],
  );
  t.ok(
    read[1]!.writes.every(
      (write, i) => write.key === many[i]!.key && write.value.equals(encodePosition(many[i]!.position)),
    ),
    'every position of the large block',
  );
  t.equal(writer.take().byteLength, 0, 'take empties the writer');
});

t.test('error: a cut answer is refused', async (t) => {
  const writer = createWalletFoldResult();
  writer.startBlock(7);
  writer.position(positionKey(1, 2), position(3));
  writer.endBlock();
  const answer = writer.take();
  t.throws(() => [...readWalletFoldResult(answer.subarray(0, answer.byteLength - 1))], /runs past the end/);
});
