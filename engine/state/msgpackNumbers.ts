// The msgpack bytes of a flat array of numbers, written and read by hand for the fold's most numerous values
// (positions): msgpackr's general path built an array and a buffer per value, about 5 µs a position in the wallet
// fold. The bytes are exactly msgpackr's for our Packr (useRecords false): integers in the smallest fixint or
// (u)int8/16/32 form, everything else (fractions, integers beyond 32 bits) as float64. test/state/msgpackNumbers
// checks them against msgpackr's.

/** The most bytes an array of `count` numbers takes. */
export function maxNumbersBytes(count: number): number {
  return 5 + count * 9;
}

/** Writes the header of an array of `count` items at `at` and answers the next offset. */
export function writeArrayHeader(bytes: Buffer, at: number, count: number): number {
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

/**
 * Reads an array of numbers written so (or by msgpackr, in any numeric form) into `out`; answers how many it held.
 * Anything else in the bytes is an error: they are not what the caller stored.
 */
export function readNumbers(bytes: Uint8Array, out: number[]): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at: number;
  let count: number;
  const head = bytes[0]!;
  if ((head & 0xf0) === 0x90) {
    count = head & 0x0f;
    at = 1;
  } else if (head === 0xdc) {
    count = view.getUint16(1);
    at = 3;
  } else if (head === 0xdd) {
    count = view.getUint32(1);
    at = 5;
  } else throw new Error(`msgpack numbers: not an array (first byte ${head})`);
  for (let i = 0; i < count; i++) {
    const b = bytes[at]!;
    const size = NUMBER_BYTES[b]!;
    if (size === 0) throw new Error(`msgpack numbers: item ${i} is not a number (byte ${b})`);
    if (at + size > bytes.length) throw new Error(`msgpack numbers: item ${i} runs past the end`);
    let value: number;
    if (b < 0x80) value = b;
    else if (b >= 0xe0) value = b - 0x100;
    else if (b === 0xcc) value = bytes[at + 1]!;
    else if (b === 0xcd) value = view.getUint16(at + 1);
    else if (b === 0xce) value = view.getUint32(at + 1);
    else if (b === 0xcf) value = Number(view.getBigUint64(at + 1));
    else if (b === 0xd0) value = view.getInt8(at + 1);
    else if (b === 0xd1) value = view.getInt16(at + 1);
    else if (b === 0xd2) value = view.getInt32(at + 1);
    else if (b === 0xd3) value = Number(view.getBigInt64(at + 1));
    else if (b === 0xca) value = view.getFloat32(at + 1);
    else value = view.getFloat64(at + 1); // 0xcb: NUMBER_BYTES admits no other
    at += size;
    out[i] = value;
  }
  return count;
}
