import { AssertionFailure } from '../../engine/assert.js';
// A map from fixed-length hex words (addresses, topic0s) to values, looked up straight from a log's digits, so
// routing a log makes no string: the first 8 digits pick a bucket, the rest are compared byte by byte.

const DIGIT = new Uint8Array(256);
for (let c = 0; c < 10; c++) DIGIT[48 + c] = c;
for (let c = 0; c < 6; c++) DIGIT[97 + c] = 10 + c;

export interface HexIndex<T> {
  /** `hex`: the word's lowercase digits, with or without 0x. */
  set(hex: string, value: T): void;
  /** The value of the word whose digits are bytes[at, at + digits), which must be lowercase hex. */
  get(bytes: Uint8Array, at: number): T | undefined;
}

export function createHexIndex<T>(digits: number): HexIndex<T> {
  const buckets = new Map<number, Array<{ word: Uint8Array; value: T }>>();
  const prefix = (bytes: Uint8Array, at: number): number => {
    let value = 0;
    for (let i = at; i < at + 8; i++) value = value * 16 + DIGIT[bytes[i]!]!;
    return value;
  };
  return {
    set(hex, value) {
      const word = Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'latin1');
      if (word.length !== digits) throw new AssertionFailure(`hex index: ${hex} is not ${digits} digits`);
      const key = prefix(word, 0);
      const bucket = buckets.get(key) ?? [];
      const existing = bucket.find((entry) => word.equals(entry.word));
      if (existing) existing.value = value;
      else bucket.push({ word, value });
      buckets.set(key, bucket);
    },
    get(bytes, at) {
      const bucket = buckets.get(prefix(bytes, at));
      if (bucket === undefined) return undefined;
      next: for (const entry of bucket) {
        const word = entry.word;
        for (let i = 8; i < digits; i++) if (bytes[at + i] !== word[i]) continue next;
        return entry.value;
      }
      return undefined;
    },
  };
}
