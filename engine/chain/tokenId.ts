// Token id conversion between tally's internal form (64 lowercase hex digits, no 0x, zero-padded) and the
// decimal strings the venue's APIs use. Decimal ids have up to 78 digits and no fixed width (76-digit ids
// are common), so they are never compared or sorted as strings of the decimal form.
import { DECIMAL_CACHE_LIMIT } from '../limits.js';

const MAX_UINT256 = (1n << 256n) - 1n;
const MAX_DECIMAL_DIGITS = 78; // 2^256 - 1 has 78 decimal digits
const HEX64 = /^[0-9a-fA-F]{64}$/;
const DECIMAL = /^[0-9]+$/;

const decimalCache = new Map<string, string>();

/** 64 hex digits (no 0x, any case) -> decimal string without leading zeros. */
export function tokenIdToDecimal(hex64: string): string {
  const cached = decimalCache.get(hex64);
  if (cached !== undefined) return cached;
  if (!HEX64.test(hex64)) throw new RangeError(`token id must be 64 hex digits without 0x, got "${hex64}"`);
  const decimal = BigInt('0x' + hex64).toString(10);
  if (decimalCache.size >= DECIMAL_CACHE_LIMIT) decimalCache.clear();
  decimalCache.set(hex64, decimal);
  return decimal;
}

/** Decimal string (leading zeros allowed) -> 64 lowercase hex digits; RangeError unless 0 <= id < 2^256. */
export function tokenIdFromDecimal(decimal: string): string {
  if (!DECIMAL.test(decimal)) throw new RangeError(`token id must be a decimal integer, got "${decimal}"`);
  // Check the length before BigInt so an absurdly long string costs nothing to refuse.
  let first = 0;
  while (first < decimal.length - 1 && decimal.charCodeAt(first) === 48) first++;
  if (decimal.length - first > MAX_DECIMAL_DIGITS) {
    throw new RangeError(
      `token id ${decimal.slice(0, 20)}… has more than ${MAX_DECIMAL_DIGITS} digits, above 2^256 - 1`,
    );
  }
  const value = BigInt(decimal);
  if (value > MAX_UINT256) throw new RangeError(`token id ${decimal} is above 2^256 - 1`);
  return value.toString(16).padStart(64, '0');
}
