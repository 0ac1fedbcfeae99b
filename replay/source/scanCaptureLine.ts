// The fast path of capture parsing: one pass over a line's bytes for the flat object shape nodes return,
// validating hex as it goes and producing lowercase strings. Anything unusual (escapes, nested values, unknown
// value shapes) returns null and the caller parses the line with JSON.parse (parseCaptureLine), so odd but
// valid JSON still parses and every error message comes from one place. The log's data stays a byte range of
// the line buffer, valid until the next line is read.
import type { CaptureLog } from './parseCaptureLine.js';

const HEX = new Int8Array(256).fill(-1);
/** 1 for the upper-case hex letters: such strings are lower-cased once made. */
const UPPER = new Uint8Array(256);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) {
  HEX[97 + c] = 10 + c;
  HEX[65 + c] = 10 + c;
  UPPER[65 + c] = 1;
}
const QUOTE = 34;

interface Cursor { at: number }

function skipSpace(buf: Buffer, cursor: Cursor, end: number): void {
  let at = cursor.at;
  while (at < end) {
    const c = buf[at]!;
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) break;
    at++;
  }
  cursor.at = at;
}

/** A quoted 0x hex string of exactly `digits` digits, lowercased. Null when not that shape. */
function hexString(buf: Buffer, cursor: Cursor, end: number, digits: number): string | null {
  let at = cursor.at;
  if (buf[at] !== QUOTE || buf[at + 1] !== 48 || (buf[at + 2] !== 120 && buf[at + 2] !== 88)) return null;
  const start = at + 1;
  at += 3;
  const close = buf.indexOf(QUOTE, at);
  if (close < 0 || close >= end) return null;
  // Branch-free validation: a non-hex byte maps to -1, which sets the sign bit of `invalid`.
  let invalid = 0;
  let upper = 0;
  for (; at < close; at++) {
    const c = buf[at]!;
    invalid |= HEX[c]!;
    upper |= UPPER[c]!;
  }
  if (invalid < 0) return null;
  const length = at - start - 2;
  if (length !== digits) return null;
  cursor.at = at + 1;
  const text = buf.toString('latin1', start, at);
  return upper !== 0 || buf[start + 1] === 88 ? text.toLowerCase() : text;
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

/**
 * The quoted 0x hex data of a log, validated, as a byte range (no string is made): the line buffer itself, or a
 * lowercase copy in the rare case of upper-case digits. False when not that shape.
 */
function dataRange(buf: Buffer, cursor: Cursor, end: number, out: CaptureLog): boolean {
  let at = cursor.at;
  if (buf[at] !== QUOTE || buf[at + 1] !== 48 || (buf[at + 2] !== 120 && buf[at + 2] !== 88)) return false;
  at += 3;
  const close = buf.indexOf(QUOTE, at);
  if (close < 0 || close >= end || (close - at) % 2 !== 0) return false;
  let invalid = 0;
  let upper = 0;
  for (let i = at; i < close; i++) {
    const c = buf[i]!;
    invalid |= HEX[c]!;
    upper |= UPPER[c]!;
  }
  if (invalid < 0) return false;
  if (upper === 0) {
    out.dataBytes = buf;
    out.dataStart = at;
    out.dataEnd = close;
  } else {
    out.dataBytes = Buffer.from(buf.toString('latin1', at, close).toLowerCase(), 'latin1');
    out.dataStart = 0;
    out.dataEnd = out.dataBytes.length;
  }
  cursor.at = close + 1;
  return true;
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

/** Parses the line at buf[start, end); null means "not the plain shape: use JSON.parse". */
export function scanCaptureLine(buf: Buffer, start: number, end: number): CaptureLog | null {
  const cursor: Cursor = { at: start };
  let address: string | null = null;
  const range = { dataBytes: buf, dataStart: -1, dataEnd: -1 } as CaptureLog;
  let blockHash: string | null = null;
  let tx: string | null = null;
  let topics: string[] | null = null;
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
      if ((address = hexString(buf, cursor, end, 40)) === null) return null;
    } else if (k0 === 100 && keyIs(buf, keyStart, keyLength, 'data')) {
      if (!dataRange(buf, cursor, end, range)) return null;
    } else if (k0 === 116 && keyIs(buf, keyStart, keyLength, 'topics')) {
      if (buf[cursor.at] !== 91) return null;
      cursor.at++;
      topics = [];
      skipSpace(buf, cursor, end);
      if (buf[cursor.at] === 93) cursor.at++;
      else {
        for (;;) {
          skipSpace(buf, cursor, end);
          const topic = hexString(buf, cursor, end, 64);
          if (topic === null || topics.length === 4) return null;
          topics.push(topic);
          skipSpace(buf, cursor, end);
          if (buf[cursor.at] === 44) { cursor.at++; continue; }
          if (buf[cursor.at] === 93) { cursor.at++; break; }
          return null;
        }
      }
    } else if (k0 === 98 && keyIs(buf, keyStart, keyLength, 'blockNumber')) {
      if ((block = quantity(buf, cursor, end)) < 0) return null;
    } else if (k0 === 98 && keyIs(buf, keyStart, keyLength, 'blockHash')) {
      if ((blockHash = hexString(buf, cursor, end, 64)) === null) return null;
    } else if (k0 === 98 && keyIs(buf, keyStart, keyLength, 'blockTimestamp')) {
      if ((blockTs = quantity(buf, cursor, end)) < 0) return null;
    } else if (k0 === 116 && keyIs(buf, keyStart, keyLength, 'transactionHash')) {
      if ((tx = hexString(buf, cursor, end, 64)) === null) return null;
    } else if (k0 === 116 && keyIs(buf, keyStart, keyLength, 'transactionIndex')) {
      if ((txIndex = quantity(buf, cursor, end)) < 0) return null;
    } else if (k0 === 108 && keyIs(buf, keyStart, keyLength, 'logIndex')) {
      if ((logIndex = quantity(buf, cursor, end)) < 0) return null;
    } else if (k0 === 114 && keyIs(buf, keyStart, keyLength, 'removed')) {
      if (buf[cursor.at] === 116 && keyIs(buf, cursor.at, 4, 'true')) { removed = true; cursor.at += 4; }
      else if (buf[cursor.at] === 102 && keyIs(buf, cursor.at, 5, 'false')) { removed = false; cursor.at += 5; }
      else return null;
    } else if (!skipScalar(buf, cursor, end)) {
      return null;
    }
    skipSpace(buf, cursor, end);
    if (buf[cursor.at] === 44) { cursor.at++; continue; }
    if (buf[cursor.at] === 125) break;
    return null;
  }
  cursor.at++;
  skipSpace(buf, cursor, end);
  if (cursor.at !== end) return null;
  if (address === null || range.dataStart < 0 || blockHash === null || tx === null || topics === null) return null;
  if (block < 0 || blockTs < 0 || txIndex < 0 || logIndex < 0) return null;
  return {
    address, topics, dataBytes: range.dataBytes, dataStart: range.dataStart, dataEnd: range.dataEnd, block, blockHash, blockTs,
    tx, txIndex, logIndex, removed,
  };
}
