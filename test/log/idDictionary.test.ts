// The log's dictionary off the heap (IdDictionary over IdValueTable): it numbers texts in the order first named,
// through growth of its buffers and index and after a cut; its texts come back right however small its text cache;
// it refuses what is not an id of the space.
import t from 'tap';
import { ID_SPACE, IdDictionary } from '../../engine/log/idDictionary.js';
import { IdValueTable } from '../../engine/log/idValueTable.js';

const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');
// Values alike in most words (small numbers, a shared vanity prefix): the index must still tell them apart.
const address = (n: number) => `0x${'00000000'}${hex(n, 32)}`;
const token = (n: number) => hex(n * 7919, 64);

t.test('default: numbers texts in the order first named, across growth of its buffers', async (t) => {
  const dictionary = new IdDictionary();
  // 5,000 of each: past the first buffer (1,024 ids) and several doublings of the index.
  const numbered: [number, number][] = [];
  for (let n = 0; n < 5_000; n++) {
    numbered.push([dictionary.intern(ID_SPACE.address, address(n)), n]);
    numbered.push([dictionary.intern(ID_SPACE.token, token(n)), n]);
    numbered.push([dictionary.intern(ID_SPACE.address, address(n >> 1)), n >> 1]);
  }
  t.same(
    numbered.filter(([id, expected]) => id !== expected),
    [],
    'each text its first-named number',
  );
  t.same(dictionary.counts(), [5_000, 5_000, 0]);
  for (const id of [0, 1_023, 1_024, 4_999]) {
    t.equal(dictionary.text(ID_SPACE.token, id), token(id), `token ${id}'s text`);
    t.equal(dictionary.idOf(ID_SPACE.token, token(id)), id, `token ${id} found by its text`);
    const bytes = Buffer.alloc(32);
    dictionary.writeBytes(ID_SPACE.token, id, bytes, 0);
    t.equal(bytes.toString('hex'), token(id), `token ${id}'s bytes`);
  }
  t.equal(dictionary.text(ID_SPACE.token, 5_000), undefined, 'no text beyond the count');
  t.equal(dictionary.idOf(ID_SPACE.condition, `0x${hex(1, 64)}`), undefined, 'no id for a text never named');
  t.equal(dictionary.idOf(ID_SPACE.address, 'not an address'), undefined, 'nor for a text not of the space');
});

t.test('behavior: texts are right whatever the cache holds, before and after a cut', async (t) => {
  // A cache of 4 texts a space: ids 1, 5 and 9 share a slot.
  const dictionary = new IdDictionary(4);
  for (let n = 0; n < 12; n++) dictionary.intern(ID_SPACE.address, address(n));
  const read = (ids: number[]) => ids.map((id) => dictionary.text(ID_SPACE.address, id));
  t.same(read([1, 5, 9, 1, 9, 5]), [1, 5, 9, 1, 9, 5].map(address), 'evicted texts made again');
  t.equal(dictionary.text(ID_SPACE.address, 5), dictionary.text(ID_SPACE.address, 5), 'a cached text is one string');
  t.equal(dictionary.text(ID_SPACE.address, 6), address(6), 'cached in slot 2');
  dictionary.truncate([6, 0, 0]);
  t.equal(dictionary.text(ID_SPACE.address, 9), undefined, 'a cut id has no text, cached or not');
  t.equal(dictionary.intern(ID_SPACE.address, address(100)), 6, 'numbered from the cut');
  t.same(read([6, 2, 10]), [address(100), address(2), undefined], 'no text of a cut id comes back');
  const copy = new IdDictionary(2);
  const bytes = Buffer.from(hex(7, 40), 'hex');
  copy.define(ID_SPACE.address, bytes, 0);
  t.equal(copy.text(ID_SPACE.address, 0), `0x${hex(7, 40)}`, 'a defined id has its text');
  t.throws(() => copy.define(ID_SPACE.address, bytes, 0), /address 0x0+7 is defined twice/);
  t.throws(() => new IdDictionary(3), /the text cache is a power of two/);
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
  t.equal(table.hex(1_500), hex(2_999, 40));
  table.truncate(5_000);
  t.equal(table.count, 1_501, 'a cut beyond the count changes nothing');
});

t.test('error: texts that are not ids of the space are refused, and nothing is numbered', async (t) => {
  const dictionary = new IdDictionary();
  const refused = [
    [ID_SPACE.address, address(0xabc).toUpperCase().replace('0X', '0x'), /not a lowercase address/],
    [ID_SPACE.address, address(1).slice(2), /not a lowercase address/],
    [ID_SPACE.address, `${address(1)}0`, /not a lowercase address/],
    [ID_SPACE.token, `0x${token(1).slice(2)}`, /not a lowercase token id/],
    [ID_SPACE.token, token(1).replace(/.$/, 'g'), /not a lowercase token id/],
    [ID_SPACE.condition, 12 as unknown as string, /not a lowercase condition id: 12/],
  ] as const;
  for (const [space, text, error] of refused) t.throws(() => dictionary.intern(space, text), error, String(text));
  t.same(dictionary.counts(), [0, 0, 0]);
});
