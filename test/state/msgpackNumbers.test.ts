// Positions written and read by hand: the bytes are msgpackr's, number for number (fixints, (u)int8/16/32, float64
// for fractions and integers beyond 32 bits, -0 as 0), so the state stays byte-identical; a position reads back
// equal, and a value that is not a position's array is refused.
import t from 'tap';
import { Packr } from 'msgpackr';
import { readFirstNumber, readNumbers, writeArrayHeader, writeNumber } from '../../engine/state/msgpackNumbers.js';
import { decodePosition, encodePosition } from '../../engine/state/stateCodec.js';
import { createPosition, type Position } from '../../engine/reducers/position.js';

// The state's own Packr (stateCodec.ts).
const packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true });

const EDGES = [
  0,
  -0,
  1,
  0x1f,
  0x20,
  0x3f,
  0x40,
  0x7f,
  0x80,
  0xff,
  0x100,
  0xffff,
  0x10000,
  0xffff_ffff,
  0x1_0000_0000,
  Number.MAX_SAFE_INTEGER,
  -1,
  -0x20,
  -0x21,
  -0x80,
  -0x81,
  -0x8000,
  -0x8001,
  -0x8000_0000,
  -0x8000_0001,
  -Number.MAX_SAFE_INTEGER,
  0.5,
  -2.25,
  1e-9,
  123_456_789_012.5,
  Number.NaN,
  Infinity,
  -Infinity,
];

/** A seeded stream of numbers of every width and sign (xorshift). */
function* numbers(seed: number, count: number): Generator<number> {
  let x = seed;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
  for (let i = 0; i < count; i++) {
    const magnitude = Math.floor(next() * 2 ** Math.floor(next() * 54));
    yield next() < 0.3 ? -magnitude : next() < 0.05 ? magnitude + 0.25 : magnitude;
  }
}

function written(values: number[]): Buffer {
  const bytes = Buffer.alloc(5 + values.length * 9);
  let at = writeArrayHeader(bytes, 0, values.length);
  for (const value of values) at = writeNumber(bytes, at, value);
  return bytes.subarray(0, at);
}

t.test("behavior: the bytes are msgpackr's for every edge and 20,000 seeded numbers", async (t) => {
  for (const value of EDGES) t.same(written([value]), packr.pack([value]), `${value}`);
  const values = [...numbers(0x9e3779b9, 20_000)];
  for (let i = 0; i < values.length; i += 21) {
    const chunk = values.slice(i, i + 21);
    if (!written(chunk).equals(packr.pack(chunk))) t.fail(`chunk at ${i}: ${chunk.join(',')}`);
  }
  // Array headers: fixarray, array16 and array32.
  for (const count of [0, 15, 16, 65_535, 65_536]) {
    const bytes = written(new Array<number>(count).fill(1));
    t.same(bytes, packr.pack(new Array<number>(count).fill(1)), `${count} items`);
    const out: number[] = [];
    t.equal(readNumbers(bytes, out), count);
  }
});

t.test("behavior: read back as written, and msgpackr's other numeric forms read too", async (t) => {
  const values = [...EDGES, ...numbers(7, 500)];
  const out: number[] = [];
  t.equal(readNumbers(written(values), out), values.length);
  t.same(
    out,
    values.map((value) => (Object.is(value, -0) ? 0 : value)),
  );
  // uint64, int64 and float32, which msgpackr reads and this writer never makes.
  const other = Buffer.from([
    0x93, 0xcf, 0, 0, 0, 1, 0, 0, 0, 0, 0xd3, 255, 255, 255, 255, 255, 255, 255, 254, 0xca, 0x3f, 0xc0, 0, 0,
  ]);
  t.equal(readNumbers(other, out), 3);
  t.same(out.slice(0, 3), [2 ** 32, -2, 1.5]);
});

t.test('behavior: the first number alone reads as the whole array reads it', async (t) => {
  for (const value of [...EDGES, ...numbers(9, 200)]) {
    const expected = Object.is(value, -0) ? 0 : value;
    t.same(readFirstNumber(written([value, 7, 8])), expected, `first of [${value}, 7, 8]`);
  }
  t.throws(() => readFirstNumber(Buffer.from([0x90])), /an empty array has no first number/);
  t.throws(() => readFirstNumber(Buffer.from([0xdc, 0, 0])), /an empty array has no first number/);
  t.throws(() => readFirstNumber(Buffer.from([0xc0])), /not an array/);
});

t.test("behavior: a value read inside a larger buffer (a store's shared one) stops at its end", async (t) => {
  // Arrays of 16 items and more (a position's 21) start with a 3-byte header.
  for (const value of [0, 1, 127, -1, -32, -33, 128, 70_000, 2 ** 40, 1.5, -7.25]) {
    const items = [value, ...Array.from({ length: 20 }, (_, i) => i)];
    const value21 = written(items);
    const shared = Buffer.concat([value21, Buffer.alloc(64, 0xcb)]);
    const expected = Object.is(value, -0) ? 0 : value;
    t.same(readFirstNumber(shared, value21.length), expected, `first of 21, ${value}`);
    const out: number[] = [];
    t.equal(readNumbers(shared, out, value21.length), 21);
    t.same(out, items);
  }
  const cut = written([2 ** 40, 1, 2]);
  t.throws(() => readFirstNumber(cut, 3), /item 0 runs past the end/, 'a value cut short is refused');
  t.throws(() => readNumbers(cut, [], cut.length - 1), /item 2 runs past the end/);
});

t.test('behavior: a position round-trips, its bytes are the field array packed by msgpackr', async (t) => {
  const position: Position = createPosition();
  const stream = numbers(42, 21);
  for (const key of Object.keys(position) as Array<keyof Position>) position[key] = stream.next().value as number;
  const bytes = encodePosition(position);
  const order: Array<keyof Position> = [
    'shares',
    'costBasis',
    'realizedPnl',
    'boughtShares',
    'boughtUsd',
    'soldShares',
    'soldUsd',
    'splitShares',
    'mergedShares',
    'mergeUsd',
    'redeemedShares',
    'redeemUsd',
    'fees',
    'fills',
    'receivedShares',
    'receivedBasis',
    'firstTradeAt',
    'lastTradeAt',
    'lowSinceTs',
    'flags',
    'redemptions',
  ];
  t.same(bytes, packr.pack(order.map((key) => position[key])));
  t.same(decodePosition(bytes), position);
  t.same(Object.keys(decodePosition(bytes)), Object.keys(createPosition()), 'the shape of a new position');
});

t.test('error: bytes that are not a position are refused', async (t) => {
  t.throws(() => decodePosition(packr.pack({ shares: 1 })), /not an array/);
  t.throws(() => decodePosition(packr.pack([1, 2, 3])), /holds 21 numbers, not 3/);
  t.throws(() => decodePosition(packr.pack(['a', ...new Array<number>(20).fill(0)])), /item 0 is not a number/);
  t.throws(() => decodePosition(written(new Array<number>(21).fill(70_000)).subarray(0, 50)), /runs past the end/);
});
