// JSON written straight into bytes (the fills feed's rows): every number comes out as JSON.stringify writes it,
// the buffer grows past its capacity, and take() hands the bytes over and starts anew.
import t from 'tap';
import { JsonBytes } from '../../api/transport/jsonBytes.js';

const written = (write: (out: JsonBytes) => void, capacity = 64) => {
  const out = new JsonBytes(capacity);
  write(out);
  return out.take().toString('latin1');
};

t.test('behavior: numbers are written as JSON.stringify writes them', async (t) => {
  const values = [
    0,
    -0,
    1,
    9,
    10,
    11,
    99,
    100,
    101,
    999,
    1_000,
    1_001,
    9_999,
    10_000,
    10_001,
    99_999,
    123_456,
    1_000_000,
    4_294_967_295,
    1_800_000_123,
    90_000_000,
    10 ** 15,
    10 ** 15 - 1,
    2 ** 53 - 1,
    -1,
    -5,
    -10,
    -99,
    -100,
    -123_456_789,
    -(2 ** 53 - 1),
    // Not safe integers: as JSON.stringify writes them (the feed's numbers never are, but the writer holds anyway).
    0.5,
    -2.25,
    2 ** 53,
    1e21,
    1e-7,
    Number.NaN,
    Number.POSITIVE_INFINITY,
  ];
  for (const value of values)
    t.equal(
      written((out) => out.number(value)),
      JSON.stringify(value),
      `${value}`,
    );
  // Where the writer changes its arithmetic: 32-bit integers below 2^31, two parts split at 10^8 above (the low
  // part's zeros kept), and random integers of every length, negatives too.
  const random = (seed: number) => () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const next = random(9);
  const awkward = [2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2 ** 32, 100_000_000 * 7 + 5, 100_000_000 * 12 + 3_004_005];
  for (let i = 0; i < 2000; i++) awkward.push(Math.floor(next() * 10 ** (1 + (i % 16))) * (i % 3 === 0 ? -1 : 1));
  for (const value of awkward) {
    t.equal(
      written((out) => out.number(value)),
      JSON.stringify(value),
    );
  }
  t.equal(
    written((out) => out.array(awkward)),
    JSON.stringify(awkward),
    'an array of them',
  );
  // Every power of ten and its neighbours, where the digit count changes.
  for (let scale = 1; scale <= 2 ** 53; scale *= 10) {
    for (const value of [scale - 1, scale, scale + 1].filter(Number.isSafeInteger)) {
      t.equal(
        written((out) => out.number(value)),
        String(value),
      );
    }
  }
});

t.test('behavior: a row of text, characters and numbers grows the buffer past its capacity', async (t) => {
  const row = [3, 1_800_000_000, 90_000_123, 17, 1, 0, 123_456_789, 61_728_394, 2, 1, -5];
  const text = written((out) => {
    out.text('{"fills":[');
    for (let i = 0; i < 100; i++) {
      if (i > 0) out.char(44);
      out.char(91);
      row.forEach((value, k) => {
        if (k > 0) out.char(44);
        out.number(value);
      });
      out.char(93);
    }
    out.text(']}');
  }, 4);
  t.same(JSON.parse(text), { fills: Array.from({ length: 100 }, () => row) });
  t.equal(text, JSON.stringify({ fills: Array.from({ length: 100 }, () => row) }), 'the same bytes as JSON.stringify');
  t.equal(
    written((out) => out.array(Float64Array.from(row))),
    JSON.stringify(row),
    'array() writes a row the same',
  );
  t.equal(
    written((out) => out.array([])),
    '[]',
    'an empty array',
  );
  // Numbers longer than an integer's room, then integers: the room is made again after each (a 4-byte start).
  const mixed = [-1.2345678901234567e-300, -9_007_199_254_740_991, 5e-324, 2 ** 53 - 1, 0.1, -0, 1e21, 7];
  t.equal(
    written((out) => out.array(mixed), 4),
    JSON.stringify(mixed),
    'array() of long non-integers among the longest integers',
  );
});

t.test('behavior: take() hands the bytes over; what is written next goes to a new buffer', async (t) => {
  const out = new JsonBytes(16);
  out.text('[1,2');
  t.equal(out.length, 4);
  const first = out.take();
  t.equal(out.length, 0, 'empty after a take');
  out.text('overwrites nothing');
  t.equal(first.toString('latin1'), '[1,2', 'the taken bytes are unchanged by later writes');
  t.equal(out.take().toString('latin1'), 'overwrites nothing');
});
