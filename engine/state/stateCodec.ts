// The one codec for state values: msgpack of plain arrays and constructor-built objects, so the stored bytes
// (and the per-block checksums over them) never depend on scheduling or on msgpackr's record structures.
import { assert, AssertionFailure } from '../assert.js';
import { Packr } from 'msgpackr';
import type { Position } from '../reducers/position.js';
import { maxNumbersBytes, readNumbers, writeArrayHeader, writeNumber } from './msgpackNumbers.js';

const packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true });

export function encodeValue(value: unknown): Buffer {
  // A record, a view of one or a count: undefined would be a view that forgot to answer.
  assert(value !== undefined, 'a state value is defined');
  return packr.pack(value);
}

export function decodeValue<T>(bytes: Uint8Array): T {
  return packr.unpack(bytes) as T;
}

// Positions are the most numerous values: an array of their numbers in this field order, written and read by hand
// (msgpackNumbers.ts: msgpackr's bytes, without its general path's array and buffer per value).

/** The most bytes a position's value takes. */
export const POSITION_MAX_BYTES = maxNumbersBytes(21);

/** Writes a position's value at `bytes[at..]` (room for POSITION_MAX_BYTES) and answers the next offset. */
export function writePosition(p: Position, bytes: Buffer, at: number): number {
  assert(at >= 0 && at + POSITION_MAX_BYTES <= bytes.length, 'a position is written where its largest form fits');
  at = writeArrayHeader(bytes, at, 21);
  at = writeNumber(bytes, at, p.shares);
  at = writeNumber(bytes, at, p.costBasis);
  at = writeNumber(bytes, at, p.realizedPnl);
  at = writeNumber(bytes, at, p.boughtShares);
  at = writeNumber(bytes, at, p.boughtUsd);
  at = writeNumber(bytes, at, p.soldShares);
  at = writeNumber(bytes, at, p.soldUsd);
  at = writeNumber(bytes, at, p.splitShares);
  at = writeNumber(bytes, at, p.mergedShares);
  at = writeNumber(bytes, at, p.mergeUsd);
  at = writeNumber(bytes, at, p.redeemedShares);
  at = writeNumber(bytes, at, p.redeemUsd);
  at = writeNumber(bytes, at, p.fees);
  at = writeNumber(bytes, at, p.fills);
  at = writeNumber(bytes, at, p.receivedShares);
  at = writeNumber(bytes, at, p.receivedBasis);
  at = writeNumber(bytes, at, p.firstTradeAt);
  at = writeNumber(bytes, at, p.lastTradeAt);
  at = writeNumber(bytes, at, p.lowSinceTs);
  at = writeNumber(bytes, at, p.flags);
  return writeNumber(bytes, at, p.redemptions);
}

export function encodePosition(position: Position): Buffer {
  const bytes = Buffer.allocUnsafeSlow(POSITION_MAX_BYTES);
  const end = writePosition(position, bytes, 0);
  // The array of 21 numbers: a 3-byte header, then a byte at least each.
  assert(end >= 3 + 21 && end <= POSITION_MAX_BYTES, 'a position takes between its smallest and largest form');
  return bytes.subarray(0, end);
}

/** Decoding's scratch: safe to share, decodePosition is synchronous. */
const numbers: number[] = new Array<number>(21).fill(0);

/** `end`: where the value ends, when `bytes` is a store's shared buffer that runs on past it. */
export function decodePosition(bytes: Uint8Array, end = bytes.length): Position {
  const count = readNumbers(bytes, numbers, end);
  if (count !== 21) throw new AssertionFailure(`a position value holds 21 numbers, not ${count}`);
  const v = numbers;
  return {
    shares: v[0]!,
    costBasis: v[1]!,
    realizedPnl: v[2]!,
    boughtShares: v[3]!,
    boughtUsd: v[4]!,
    soldShares: v[5]!,
    soldUsd: v[6]!,
    splitShares: v[7]!,
    mergedShares: v[8]!,
    mergeUsd: v[9]!,
    redeemedShares: v[10]!,
    redeemUsd: v[11]!,
    fees: v[12]!,
    fills: v[13]!,
    receivedShares: v[14]!,
    receivedBasis: v[15]!,
    firstTradeAt: v[16]!,
    lastTradeAt: v[17]!,
    lowSinceTs: v[18]!,
    // createPosition's order, so decoded and new positions share one shape.
    redemptions: v[20]!,
    flags: v[19]!,
  };
}
