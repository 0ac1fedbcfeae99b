// The capture reader's dictionary off the heap (IdIndex over IdValueTable): it numbers texts as the log's own
// dictionary does, through growth of its buffers and index, and after a cut; it refuses what the dictionary refuses.
import t from 'tap';
import { ID_SPACE, IdDictionary } from '../../engine/log/idDictionary.js';
import { IdIndex } from '../../engine/log/idIndex.js';
import { IdValueTable } from '../../engine/log/idValueTable.js';

const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');
// Values alike in most words (small numbers, a shared vanity prefix): the index must still tell them apart.
const address = (n: number) => `0x${'00000000'}${hex(n, 32)}`;
const token = (n: number) => hex(n * 7919, 64);

t.test('default: numbers texts as the dictionary does, across growth of its buffers', async (t) => {
  const dictionary = new IdDictionary();
  const index = new IdIndex();
  // 5,000 of each: past the first buffer (1,024 ids) and several doublings of the index.
  const numbered: [number, number][] = [];
  for (let n = 0; n < 5_000; n++) {
    for (const [space, text] of [
      [ID_SPACE.address, address(n)],
      [ID_SPACE.token, token(n)],
      [ID_SPACE.address, address(n >> 1)],
    ] as const) {
      numbered.push([index.intern(space, text), dictionary.intern(space, text)]);
    }
  }
  t.same(
    numbered.filter(([a, b]) => a !== b),
    [],
    'the same id for every text',
  );
  t.same(index.counts(), [5_000, 5_000, 0]);
  const fromIndex = Buffer.alloc(32);
  const fromDictionary = Buffer.alloc(32);
  for (const id of [0, 1_023, 1_024, 4_999]) {
    index.writeBytes(ID_SPACE.token, id, fromIndex, 0);
    dictionary.writeBytes(ID_SPACE.token, id, fromDictionary, 0);
    t.same(fromIndex, fromDictionary, `token ${id}'s bytes`);
  }
  const copy = IdIndex.of(dictionary);
  t.same(copy.counts(), dictionary.counts());
  t.equal(copy.intern(ID_SPACE.token, token(4_321)), 4_321, 'a copy knows every id');
  t.equal(copy.intern(ID_SPACE.condition, `0x${hex(1, 64)}`), 0, 'and numbers the next ones');
});

t.test('behavior: after a cut, the forgotten values are new again and numbered from the cut', async (t) => {
  const table = new IdValueTable(20);
  const value = (n: number) => Buffer.from(hex(n, 40), 'hex');
  const pushed = Array.from({ length: 3_000 }, (_, n) => table.push(value(n), 0));
  t.same(
    pushed,
    Array.from({ length: 3_000 }, (_, n) => n),
    'numbered in order',
  );
  table.truncate(1_500);
  t.equal(table.count, 1_500);
  t.equal(table.find(value(1_499), 0), 1_499, 'kept');
  t.equal(table.find(value(1_500), 0), -1, 'forgotten');
  t.equal(table.push(value(2_999), 0), 1_500, 'numbered from the cut');
  t.equal(table.find(value(2_999), 0), 1_500);
  table.truncate(5_000);
  t.equal(table.count, 1_501, 'a cut beyond the count changes nothing');
});

t.test('error: texts that are not ids of the space are refused, and nothing is numbered', async (t) => {
  const index = new IdIndex();
  const refused = [
    [ID_SPACE.address, address(0xabc).toUpperCase().replace('0X', '0x'), /not a lowercase address/],
    [ID_SPACE.address, address(1).slice(2), /not a lowercase address/],
    [ID_SPACE.address, `${address(1)}0`, /not a lowercase address/],
    [ID_SPACE.token, `0x${token(1).slice(2)}`, /not a lowercase token id/],
    [ID_SPACE.token, token(1).replace(/.$/, 'g'), /not a lowercase token id/],
    [ID_SPACE.condition, 12 as unknown as string, /not a lowercase condition id: 12/],
  ] as const;
  for (const [space, text, error] of refused) {
    t.throws(() => index.intern(space, text), error, String(text));
    t.throws(() => new IdDictionary().intern(space, text), error, `the dictionary too: ${String(text)}`);
  }
  t.same(index.counts(), [0, 0, 0]);
});
