import { assert, AssertionFailure } from '../assert.js';
// The msgpack bytes of a flat array of numbers, written and read by hand for the fold's most numerous values
// (positions): msgpackr's general path built an array and a buffer per value, about 5 µs a position in the wallet
// fold. The bytes are exactly msgpackr's for our Packr (useRecords false): integers in the smallest fixint or
// (u)int8/16/32 form, everything else (fractions, integers beyond 32 bits) as float64. test/state/msgpackNumbers
// checks them against msgpackr's.

/** The most bytes an array of `count` numbers takes. */
export function maxNumbersBytes(count: number): number {
  assert(Number.isSafeInteger(count) && count >= 0, 'an array holds a count of numbers');
  return 5 + count * 9;
}

/** Writes the header of an array of `count` items at `at` and answers the next offset. */
export function writeArrayHeader(bytes: Buffer, at: number, count: number): number {
  // An index past the end drops a byte silently: the caller reserves maxNumbersBytes.
  assert(at >= 0 && at + 5 <= bytes.length && count >>> 0 === count, 'an array header is written where it fits');
  if (count < 0x10) {
    bytes[at] = 0x90 | count;
    return at + 1;
  }
  if (count < 0x10000) {
    bytes[at] = 0xdc;
    bytes.writeUInt16BE(count, at + 1);
    return at + 3;
  }
  bytes[at] = 0xdd;
  bytes.writeUInt32BE(count, at + 1);
  return at + 5;
}

/** Writes one number at `at` as msgpackr does and answers the next offset. */
export function writeNumber(bytes: Buffer, at: number, value: number): number {
  // Room for the widest form (float64): what maxNumbersBytes reserves a number.
  assert(at >= 0 && at + 9 <= bytes.length, 'a number is written where any of its forms fits');
  if (value >>> 0 === value) {
    if (value < 0x80) {
      bytes[at] = value;
      return at + 1;
    }
    if (value < 0x100) {
      bytes[at] = 0xcc;
      bytes[at + 1] = value;
      return at + 2;
    }
    if (value < 0x10000) {
      bytes[at] = 0xcd;
      bytes.writeUInt16BE(value, at + 1);
      return at + 3;
    }
    bytes[at] = 0xce;
    bytes.writeUInt32BE(value, at + 1);
    return at + 5;
  }
  if (value >> 0 === value) {
    if (value >= -0x20) {
      bytes[at] = 0x100 + value;
      return at + 1;
    }
    if (value >= -0x80) {
      bytes[at] = 0xd0;
      bytes.writeInt8(value, at + 1);
      return at + 2;
    }
    if (value >= -0x8000) {
      bytes[at] = 0xd1;
      bytes.writeInt16BE(value, at + 1);
      return at + 3;
    }
    bytes[at] = 0xd2;
    bytes.writeInt32BE(value, at + 1);
    return at + 5;
  }
  bytes[at] = 0xcb;
  bytes.writeDoubleBE(value, at + 1);
  return at + 9;
}

/** Bytes a number takes by its first byte; 0: not a number. */
const NUMBER_BYTES = new Uint8Array(256);
NUMBER_BYTES.fill(1, 0x00, 0x80);
NUMBER_BYTES.fill(1, 0xe0, 0x100);
for (const [tag, size] of [
  [0xcc, 2],
  [0xcd, 3],
  [0xce, 5],
  [0xcf, 9],
  [0xd0, 2],
  [0xd1, 3],
  [0xd2, 5],
  [0xd3, 9],
  [0xca, 5],
  [0xcb, 9],
] as const)
  NUMBER_BYTES[tag] = size;

/** The array's item count and where its first item starts. */
function arrayHead(bytes: Uint8Array, view: DataView): [count: number, at: number] {
  const head = bytes[0]!;
  if ((head & 0xf0) === 0x90) return [head & 0x0f, 1];
  if (head === 0xdc) return [view.getUint16(1), 3];
  if (head === 0xdd) return [view.getUint32(1), 5];
  throw new AssertionFailure(`msgpack numbers: not an array (first byte ${head})`);
}

/** The number at `at`, item `item` of the array, which ends at `end`. */
function numberAt(bytes: Uint8Array, view: DataView, at: number, item: number, end: number): number {
  const b = bytes[at]!;
  const size = NUMBER_BYTES[b]!;
  if (size === 0) throw new AssertionFailure(`msgpack numbers: item ${item} is not a number (byte ${b})`);
  if (at + size > end) throw new AssertionFailure(`msgpack numbers: item ${item} runs past the end`);
  if (b < 0x80) return b;
  if (b >= 0xe0) return b - 0x100;
  if (b === 0xcc) return bytes[at + 1]!;
  if (b === 0xcd) return view.getUint16(at + 1);
  if (b === 0xce) return view.getUint32(at + 1);
  if (b === 0xcf) return Number(view.getBigUint64(at + 1));
  if (b === 0xd0) return view.getInt8(at + 1);
  if (b === 0xd1) return view.getInt16(at + 1);
  if (b === 0xd2) return view.getInt32(at + 1);
  if (b === 0xd3) return Number(view.getBigInt64(at + 1));
  if (b === 0xca) return view.getFloat32(at + 1);
  return view.getFloat64(at + 1); // 0xcb: NUMBER_BYTES admits no other
}

/**
 * Reads an array of numbers written so (or by msgpackr, in any numeric form) into `out`; answers how many it held.
 * Anything else in the bytes is an error: they are not what the caller stored. `end`: where the value ends, when
 * `bytes` is a store's shared buffer that runs on past it.
 */
export function readNumbers(bytes: Uint8Array, out: number[], end = bytes.length): number {
  assert(end <= bytes.length, 'a value ends inside the bytes it is read from');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [count, first] = arrayHead(bytes, view);
  for (let i = 0, at = first; i < count; i++) {
    out[i] = numberAt(bytes, view, at, i, end);
    at += NUMBER_BYTES[bytes[at]!]!;
  }
  return count;
}

/**
 * The array's first number, the rest left unread (a position's shares: an open-positions answer skips the rest).
 * A zero or a small integer, what most positions of a wallet hold once closed, is read without a DataView.
 */
export function readFirstNumber(bytes: Uint8Array, end = bytes.length): number {
  assert(end <= bytes.length, 'a value ends inside the bytes it is read from');
  const head = bytes[0]!;
  const items = (head & 0xf0) === 0x90 ? head & 0x0f : head === 0xdc ? bytes[1]! | bytes[2]! : head === 0xdd ? 1 : 0;
  const at = head === 0xdc ? 3 : head === 0xdd ? 5 : 1;
  if (items !== 0 && at < end) {
    const b = bytes[at]!;
    if (b < 0x80) return b;
    if (b >= 0xe0) return b - 0x100;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [count, first] = arrayHead(bytes, view);
  if (count === 0) throw new AssertionFailure('msgpack numbers: an empty array has no first number');
  return numberAt(bytes, view, first, 0, end);
}
