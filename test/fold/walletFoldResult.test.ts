// The wallet worker's answer: per block, its position writes (binary keys, values written in place) and new index
// keys come back in order as checksum entries, byte for byte, and the writes to put (each position's last); a block
// with no position leaves no entry; a cut answer is refused.
import t from 'tap';
import {
  createWalletFoldResult,
  readWalletFoldResult,
  type WalletFoldAnswer,
} from '../../engine/fold/walletFoldTask.js';
import { entryEnd, entryKeyAt, entryValueAt } from '../../engine/state/blockChecksum.js';
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

/** An answer's block as [db, key, value hex] writes, read from its entries. */
function blockWrites(answer: WalletFoldAnswer, block: number): Array<[string, string, string]> {
  const entry = answer.blocks.get(block)!;
  const writes: Array<[string, string, string]> = [];
  for (const range of [entry.positions, entry.indexKeys])
    for (let at = range.start; at < range.end; at = entryEnd(answer.bytes, at))
      writes.push(entryWrite(answer.bytes, at));
  return writes;
}

/** The write an entry holds, its database as the entry names it. */
function entryWrite(bytes: Buffer, at: number): [string, string, string] {
  const keyAt = entryKeyAt(bytes, at);
  const valueAt = entryValueAt(bytes, at);
  const db = bytes.toString('latin1', at + 7, keyAt);
  return [db, bytes.toString('latin1', keyAt, valueAt), bytes.toString('hex', valueAt, entryEnd(bytes, at))];
}

t.test('behavior: blocks, positions, index keys and the writes to put round-trip', async (t) => {
  const writer = createWalletFoldResult();
  // Keys with bytes above 127: they must come back as the same latin1 characters.
  const first = [
    { key: positionKey(1, 0xfffe), position: position(41) },
    { key: positionKey(0x80ff00, 3), position: position(300) },
  ];
  writer.startBlock(7);
  const at = first.map(({ key, position }) => writer.position(key, position));
  writer.indexKey(marketWalletKey(9, 1));
  writer.endBlock();
  // A block with nothing stored leaves no entry.
  writer.startBlock(8);
  writer.endBlock();
  // Enough to outgrow the first buffer; the first position is written again.
  const many = Array.from({ length: 2000 }, (_, i) => ({ key: positionKey(i + 2, i + 1), position: position(i) }));
  writer.startBlock(9);
  const again = writer.position(first[0]!.key, position(42));
  for (const { key, position } of many) writer.position(key, position);
  writer.endBlock();
  writer.finish([again, at[1]!]);
  const answer = readWalletFoldResult(writer.take());
  t.same([...answer.blocks.keys()], [7, 9]);
  t.same(blockWrites(answer, 7), [
    ['positions', first[0]!.key, encodePosition(first[0]!.position).toString('hex')],
    ['positions', first[1]!.key, encodePosition(first[1]!.position).toString('hex')],
    ['marketWallets', marketWalletKey(9, 1), ''],
  ]);
  const nine = blockWrites(answer, 9);
  t.equal(nine.length, 2001);
  t.ok(
    many.every(
      ({ key, position }, i) => nine[i + 1]![1] === key && nine[i + 1]![2] === encodePosition(position).toString('hex'),
    ),
    'every position of the large block',
  );
  t.same(
    answer.lastWrites.map((at) => entryWrite(answer.bytes, at)),
    [
      ['positions', first[0]!.key, encodePosition(position(42)).toString('hex')],
      ['positions', first[1]!.key, encodePosition(first[1]!.position).toString('hex')],
    ],
    'the writes to put',
  );
  t.equal(writer.take().byteLength, 0, 'take empties the writer');
});

t.test('error: a cut answer is refused', async (t) => {
  const writer = createWalletFoldResult();
  writer.startBlock(7);
  const at = writer.position(positionKey(1, 2), position(3));
  writer.endBlock();
  writer.finish([at]);
  const answer = writer.take();
  t.throws(() => readWalletFoldResult(answer.subarray(0, answer.byteLength - 1)), /runs past the end/);
  t.throws(() => readWalletFoldResult(answer.subarray(0, 20)), /runs past the end/);
});
