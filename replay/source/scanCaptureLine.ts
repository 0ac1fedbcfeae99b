// The fast path of capture parsing: one pass over a line's bytes for the flat object shape nodes return,
// validating hex as it goes (upper-case digits are lower-cased in place: the line buffer is the reader's own).
// It makes no string: the result is a view of the line buffer (RawLog), valid until the next line is read, and
// reused from line to line. Anything unusual (escapes, nested values, unknown value shapes) returns null and the
// caller parses the line with JSON.parse (parseCaptureLine), so odd but valid JSON still parses and every error
// message comes from one place.
import type { RawLog } from '../decode/rawLog.js';
import type { CaptureLine } from './parseCaptureLine.js';

/** Per byte: 0 a digit or lower-case hex letter, 1 an upper-case hex letter, 2 anything else. */
const CLASS = new Uint8Array(256).fill(2);
for (let c = 0; c < 10; c++) CLASS[48 + c] = 0;
for (let c = 0; c < 6; c++) {
  CLASS[97 + c] = 0;
  CLASS[65 + c] = 1;
}
const HEX = new Int8Array(256).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) {
  HEX[97 + c] = 10 + c;
  HEX[65 + c] = 10 + c;
}
const QUOTE = 34;

interface Cursor {
  at: number;
}

function skipSpace(buf: Buffer, cursor: Cursor, end: number): void {
  let at = cursor.at;
  while (at < end) {
    const c = buf[at]!;
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) break;
    at++;
  }
  cursor.at = at;
}

/** Lower-cases the hex digits in [start, end) in place (and an "0X" before them). */
function lowerCase(buf: Buffer, start: number, end: number): void {
  buf[start - 1] = 120;
  for (let i = start; i < end; i++) if (CLASS[buf[i]!] === 1) buf[i] = buf[i]! | 0x20;
}

/**
 * A quoted 0x hex string of exactly `digits` digits (`digits` < 0: any even count up to the closing quote).
 * Returns where its digits start and moves the cursor past the closing quote; -1 when not that shape.
 */
function hexDigits(buf: Buffer, cursor: Cursor, end: number, digits: number): number {
  const at = cursor.at;
  if (buf[at] !== QUOTE || buf[at + 1] !== 48) return -1;
  const x = buf[at + 2];
  if (x !== 120 && x !== 88) return -1;
  const start = at + 3;
  let close: number;
  let seen = 0;
  if (digits >= 0) {
    close = start + digits;
    if (close >= end || buf[close] !== QUOTE) return -1;
    for (let i = start; i < close; i++) seen |= CLASS[buf[i]!]!;
  } else {
    close = start;
    let c: number;
    while (close < end && (c = buf[close]!) !== QUOTE) {
      seen |= CLASS[c]!;
      close++;
    }
    if (close >= end || (close - start) % 2 !== 0) return -1;
  }
  if (seen > 1) return -1;
  if (seen === 1 || x === 88) lowerCase(buf, start, close);
  cursor.at = close + 1;
  return start;
}
/** A quantity: "0x" hex (1-13 digits) or a JSON integer. -1 when not that shape. */
function quantity(buf: Buffer, cursor: Cursor, end: number): number {
  let at = cursor.at;
  let value = 0;
  if (buf[at] === QUOTE) {
    if (buf[at + 1] !== 48 || buf[at + 2] !== 120) return -1;
    at += 3;
    const first = at;
    while (at < end && buf[at] !== QUOTE) {
      const digit = HEX[buf[at]!]!;
      if (digit < 0) return -1;
      value = value * 16 + digit;
      at++;
    }
    if (at >= end || at === first || at - first > 13) return -1;
    cursor.at = at + 1;
    return value;
  }
  const first = at;
  while (at < end) {
    const c = buf[at]!;
    if (c < 48 || c > 57) break;
    value = value * 10 + (c - 48);
    at++;
  }
  if (at === first || at - first > 15) return -1;
  cursor.at = at;
  return value;
}

function keyIs(buf: Buffer, start: number, length: number, key: string): boolean {
  if (length !== key.length) return false;
  for (let i = 0; i < length; i++) if (buf[start + i] !== key.charCodeAt(i)) return false;
  return true;
}

/** Skips a scalar value we do not use (string without escapes, number, true, false, null). */
function skipScalar(buf: Buffer, cursor: Cursor, end: number): boolean {
  let at = cursor.at;
  const c = buf[at];
  if (c === QUOTE) {
    at++;
    while (at < end && buf[at] !== QUOTE) {
      if (buf[at] === 92) return false;
      at++;
    }
    if (at >= end) return false;
    cursor.at = at + 1;
    return true;
  }
  while (at < end) {
    const d = buf[at]!;
    if (d === 44 || d === 125 || d === 32 || d === 9 || d === 13 || d === 10) break;
    if (d === QUOTE || d === 91 || d === 123) return false;
    at++;
  }
  if (at === cursor.at) return false;
  cursor.at = at;
  return true;
}

export type CaptureLineScanner = (buf: Buffer, start: number, end: number) => CaptureLine | null;

/** A scanner with its own result object, reused for every line it scans. */
export function createCaptureLineScanner(): CaptureLineScanner {
  const raw: RawLog = {
    bytes: Buffer.alloc(0),
    addressAt: -1,
    topicCount: 0,
    topicAt: new Int32Array(4),
    dataStart: -1,
    dataEnd: -1,
    txAt: -1,
    blockHashAt: -1,
    logIndex: -1,
    txIndex: -1,
  };
  const line: CaptureLine = { raw, block: -1, blockTs: -1, removed: false };
  const cursor: Cursor = { at: 0 };
  const topicAt = raw.topicAt;

  return (buf, start, end) => {
    cursor.at = start;
    let addressAt = -1;
    let dataStart = -1;
    let dataEnd = -1;
    let blockHashAt = -1;
    let txAt = -1;
    let topicCount = -1;
    let block = -1;
    let blockTs = -1;
    let txIndex = -1;
    let logIndex = -1;
    let removed = false;
    skipSpace(buf, cursor, end);
    if (buf[cursor.at] !== 123) return null;
    cursor.at++;
    for (;;) {
      skipSpace(buf, cursor, end);
      if (buf[cursor.at] === 125) break;
      if (buf[cursor.at] !== QUOTE) return null;
      const keyStart = cursor.at + 1;
      let keyEnd = keyStart;
      while (keyEnd < end && buf[keyEnd] !== QUOTE) {
        if (buf[keyEnd] === 92) return null;
        keyEnd++;
      }
      const keyLength = keyEnd - keyStart;
      cursor.at = keyEnd + 1;
      skipSpace(buf, cursor, end);
      if (buf[cursor.at] !== 58) return null;
      cursor.at++;
      skipSpace(buf, cursor, end);
      const k0 = buf[keyStart];
      if (k0 === 97 && keyIs(buf, keyStart, keyLength, 'address')) {
        if ((addressAt = hexDigits(buf, cursor, end, 40)) < 0) return null;
      } else if (k0 === 100 && keyIs(buf, keyStart, keyLength, 'data')) {
        if ((dataStart = hexDigits(buf, cursor, end, -1)) < 0) return null;
        dataEnd = cursor.at - 1;
      } else if (k0 === 116 && keyIs(buf, keyStart, keyLength, 'topics')) {
        if (buf[cursor.at] !== 91) return null;
        cursor.at++;
        topicCount = 0;
        skipSpace(buf, cursor, end);
        if (buf[cursor.at] === 93) cursor.at++;
        else {
          for (;;) {
            skipSpace(buf, cursor, end);
            if (topicCount === 4) return null;
            const at = hexDigits(buf, cursor, end, 64);
            if (at < 0) return null;
            topicAt[topicCount++] = at;
            skipSpace(buf, cursor, end);
            if (buf[cursor.at] === 44) {
              cursor.at++;
              continue;
            }
            if (buf[cursor.at] === 93) {
              cursor.at++;
              break;
            }
            return null;
          }
        }
      } else if (k0 === 98 && keyIs(buf, keyStart, keyLength, 'blockNumber')) {
        if ((block = quantity(buf, cursor, end)) < 0) return null;
      } else if (k0 === 98 && keyIs(buf, keyStart, keyLength, 'blockHash')) {
        if ((blockHashAt = hexDigits(buf, cursor, end, 64)) < 0) return null;
      } else if (k0 === 98 && keyIs(buf, keyStart, keyLength, 'blockTimestamp')) {
        if ((blockTs = quantity(buf, cursor, end)) < 0) return null;
      } else if (k0 === 116 && keyIs(buf, keyStart, keyLength, 'transactionHash')) {
        if ((txAt = hexDigits(buf, cursor, end, 64)) < 0) return null;
      } else if (k0 === 116 && keyIs(buf, keyStart, keyLength, 'transactionIndex')) {
        if ((txIndex = quantity(buf, cursor, end)) < 0) return null;
      } else if (k0 === 108 && keyIs(buf, keyStart, keyLength, 'logIndex')) {
        if ((logIndex = quantity(buf, cursor, end)) < 0) return null;
      } else if (k0 === 114 && keyIs(buf, keyStart, keyLength, 'removed')) {
        if (buf[cursor.at] === 116 && keyIs(buf, cursor.at, 4, 'true')) {
          removed = true;
          cursor.at += 4;
        } else if (buf[cursor.at] === 102 && keyIs(buf, cursor.at, 5, 'false')) {
          removed = false;
          cursor.at += 5;
        } else return null;
      } else if (!skipScalar(buf, cursor, end)) {
        return null;
      }
      skipSpace(buf, cursor, end);
      if (buf[cursor.at] === 44) {
        cursor.at++;
        continue;
      }
      if (buf[cursor.at] === 125) break;
      return null;
    }
    cursor.at++;
    skipSpace(buf, cursor, end);
    if (cursor.at !== end) return null;
    if (addressAt < 0 || dataStart < 0 || blockHashAt < 0 || txAt < 0 || topicCount < 0) return null;
    if (block < 0 || blockTs < 0 || txIndex < 0 || logIndex < 0) return null;
    raw.bytes = buf;
    raw.addressAt = addressAt;
    raw.topicCount = topicCount;
    raw.dataStart = dataStart;
    raw.dataEnd = dataEnd;
    raw.txAt = txAt;
    raw.blockHashAt = blockHashAt;
    raw.logIndex = logIndex;
    raw.txIndex = txIndex;
    line.block = block;
    line.blockTs = blockTs;
    line.removed = removed;
    return line;
  };
}
