// Fixed-offset reads of ABI words from 0x-prefixed hex strings: the hot path of decoding, with no viem and no
// address checksumming. Offsets are in 32-byte words from the start of the data (after "0x").

const ZERO_PREFIX = '0'.repeat(50);

/** Thrown for values a safe integer cannot hold; the decoder counts such logs as unsupported. */
export class OversizedValueError extends Error {}
/** Thrown when data is shorter than its layout says; the decoder counts such logs as malformed. */
export class ShortDataError extends Error {}

function wordStart(data: string, word: number): number {
  const start = 2 + word * 64;
  if (start + 64 > data.length) throw new ShortDataError(`data has no word ${word}`);
  return start;
}

/** A uint word as a safe integer. */
export function readUint(data: string, word: number): number {
  const start = wordStart(data, word);
  if (!data.startsWith(ZERO_PREFIX, start)) throw new OversizedValueError(`word ${word} exceeds 2^53`);
  const value = parseInt(data.substr(start + 50, 14), 16);
  if (!(value <= Number.MAX_SAFE_INTEGER)) throw new OversizedValueError(`word ${word} exceeds 2^53`);
  return value;
}

/** A word as 64 lowercase hex digits (token ids, bitmasks). */
export function readWordHex(data: string, word: number): string {
  const start = wordStart(data, word);
  return data.substr(start, 64).toLowerCase();
}

/** A bytes32 word as 0x + 64 lowercase hex. */
export function readBytes32(data: string, word: number): string {
  return '0x' + readWordHex(data, word);
}

/** An address word as 0x + 40 lowercase hex. */
export function readAddress(data: string, word: number): string {
  const start = wordStart(data, word);
  return '0x' + data.substr(start + 24, 40).toLowerCase();
}

/** int256 word as a safe integer (two's complement). */
export function readInt(data: string, word: number): number {
  const start = wordStart(data, word);
  const head = data.charCodeAt(start);
  // '8'..'f' (and 'A'..'F') in the top nibble means negative.
  if (head >= 0x38) {
    const value = BigInt('0x' + data.substr(start, 64)) - (1n << 256n);
    if (value < BigInt(Number.MIN_SAFE_INTEGER)) throw new OversizedValueError(`word ${word} below -2^53`);
    return Number(value);
  }
  return readUint(data, word);
}

/** A dynamic uint256[] whose head word (offset in bytes) is at `word`. */
export function readUintArray(data: string, word: number): number[] {
  const at = readUint(data, word) / 32;
  const length = readUint(data, at);
  const values = new Array<number>(length);
  for (let i = 0; i < length; i++) values[i] = readUint(data, at + 1 + i);
  return values;
}

/** A dynamic uint256[] of 64-hex words (token ids). */
export function readWordHexArray(data: string, word: number): string[] {
  const at = readUint(data, word) / 32;
  const length = readUint(data, at);
  const values = new Array<string>(length);
  for (let i = 0; i < length; i++) values[i] = readWordHex(data, at + 1 + i);
  return values;
}

/** A dynamic bytes32[]. */
export function readBytes32Array(data: string, word: number): string[] {
  return readWordHexArray(data, word).map((hex) => '0x' + hex);
}

/** Dynamic `bytes` as 0x hex. */
export function readBytes(data: string, word: number): string {
  const at = readUint(data, word) / 32;
  const length = readUint(data, at);
  const start = 2 + (at + 1) * 64;
  if (start + length * 2 > data.length) throw new ShortDataError(`bytes at word ${word} run past the data`);
  return '0x' + data.substr(start, length * 2).toLowerCase();
}

/** Topic helpers: topics are whole 0x-prefixed words. */
export function topicAddress(topic: string): string {
  return '0x' + topic.substr(26, 40).toLowerCase();
}
export function topicUint(topic: string): number {
  return readUint(topic, 0);
}
