// Fixed-offset reads of ABI words and topics: the hot path of decoding, with no viem and no address
// checksumming. Both are read from the log's hex digits (see RawLog). Word offsets count 32-byte words from
// the start of the data. Input hex is lowercase (the sources guarantee it).
import { hexField, type RawLog } from './rawLog.js';

const HEX = new Int8Array(256).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) HEX[97 + c] = 10 + c;
const ZERO = 48;

/** Thrown for values a safe integer cannot hold; the decoder counts such logs as unsupported. */
export class OversizedValueError extends Error {}
/** Thrown when data is shorter than its layout says, or not hex; the decoder counts such logs as malformed. */
export class ShortDataError extends Error {}

function wordStart(log: RawLog, word: number): number {
  const start = log.dataStart + word * 64;
  if (word < 0 || start + 64 > log.dataEnd) throw new ShortDataError(`data has no word ${word}`);
  return start;
}

/** Hex digits [start, start+count) as a number (count <= 13 keeps it exact). */
function hexNumber(bytes: Buffer, start: number, count: number): number {
  let value = 0;
  let invalid = 0;
  for (let i = start; i < start + count; i++) {
    const digit = HEX[bytes[i]!]!;
    invalid |= digit;
    value = value * 16 + digit;
  }
  if (invalid < 0) throw new ShortDataError('data is not hex');
  return value;
}

/** A uint word as a safe integer. */
export function readUint(log: RawLog, word: number): number {
  const start = wordStart(log, word);
  const bytes = log.bytes;
  for (let i = start; i < start + 51; i++) {
    if (bytes[i] !== ZERO) throw new OversizedValueError(`word ${word} exceeds 2^53`);
  }
  const value = hexNumber(bytes, start + 51, 13);
  if (value > Number.MAX_SAFE_INTEGER) throw new OversizedValueError(`word ${word} exceeds 2^53`);
  return value;
}

/** A word as 64 lowercase hex digits (token ids, bitmasks). */
export function readWordHex(log: RawLog, word: number): string {
  const start = wordStart(log, word);
  return log.bytes.toString('latin1', start, start + 64);
}

/** A bytes32 word as 0x + 64 hex. */
export function readBytes32(log: RawLog, word: number): string {
  return '0x' + readWordHex(log, word);
}

/** An address word as 0x + 40 hex. */
export function readAddress(log: RawLog, word: number): string {
  const start = wordStart(log, word);
  return '0x' + log.bytes.toString('latin1', start + 24, start + 64);
}

/** A dynamic array whose head word (a byte offset) is at `word`, each element read by `read`. */
function readArray<T>(log: RawLog, word: number, read: (log: RawLog, word: number) => T): T[] {
  const at = readUint(log, word) / 32;
  const length = readUint(log, at);
  if (log.dataStart + (at + 1 + length) * 64 > log.dataEnd)
    throw new ShortDataError(`array at word ${word} runs past the data`);
  const values = new Array<T>(length);
  for (let i = 0; i < length; i++) values[i] = read(log, at + 1 + i);
  return values;
}

/** A dynamic uint256[]. */
export function readUintArray(log: RawLog, word: number): number[] {
  return readArray(log, word, readUint);
}

/** A dynamic uint256[] of 64-hex words (token ids). */
export function readWordHexArray(log: RawLog, word: number): string[] {
  return readArray(log, word, readWordHex);
}

/** A dynamic bytes32[]. */
export function readBytes32Array(log: RawLog, word: number): string[] {
  return readWordHexArray(log, word).map((hex) => '0x' + hex);
}

/** Dynamic `bytes` as 0x hex. */
export function readBytes(log: RawLog, word: number): string {
  const at = readUint(log, word) / 32;
  const length = readUint(log, at);
  const start = log.dataStart + (at + 1) * 64;
  if (start + length * 2 > log.dataEnd) throw new ShortDataError(`bytes at word ${word} run past the data`);
  return '0x' + log.bytes.toString('latin1', start, start + length * 2);
}

/** An int256 topic as a safe integer (two's complement). */
export function readIntTopic(log: RawLog, topic: number): number {
  const value = BigInt(hexField(log, log.topicAt[topic]!, 64));
  const signed = value >= 1n << 255n ? value - (1n << 256n) : value;
  if (signed > BigInt(Number.MAX_SAFE_INTEGER) || signed < BigInt(Number.MIN_SAFE_INTEGER))
    throw new OversizedValueError('int256 beyond 2^53');
  return Number(signed);
}

/** A whole topic: 0x + 64 hex. */
export function topicHex(log: RawLog, topic: number): string {
  return hexField(log, log.topicAt[topic]!, 64);
}
/** An address topic: 0x + its last 40 hex. */
export function topicAddress(log: RawLog, topic: number): string {
  const at = log.topicAt[topic]!;
  return '0x' + log.bytes.toString('latin1', at + 24, at + 64);
}
/** A topic as 64 hex without 0x (token ids, index sets). */
export function topicWordHex(log: RawLog, topic: number): string {
  const at = log.topicAt[topic]!;
  return log.bytes.toString('latin1', at, at + 64);
}
export function topicUint(log: RawLog, topic: number): number {
  const at = log.topicAt[topic]!;
  for (let i = at; i < at + 51; i++) if (log.bytes[i] !== ZERO) throw new OversizedValueError('topic exceeds 2^53');
  return hexNumber(log.bytes, at + 51, 13);
}
