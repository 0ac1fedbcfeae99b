// The one codec for state values: msgpack of plain arrays and constructor-built objects, so the stored bytes
// (and the per-block checksums over them) never depend on scheduling or on msgpackr's record structures.
import { Packr } from 'msgpackr';
import { createPosition, type Position } from '../reducers/position.js';

const packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true });

export function encodeValue(value: unknown): Buffer {
  return packr.pack(value);
}

export function decodeValue<T>(bytes: Uint8Array): T {
  return packr.unpack(bytes) as T;
}

// Positions are the most numerous values: a fixed array, in this field order.
const POSITION_FIELDS = [
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
] as const satisfies readonly (keyof Position)[];

export function encodePosition(position: Position): Buffer {
  const values = new Array<number>(POSITION_FIELDS.length);
  for (let i = 0; i < POSITION_FIELDS.length; i++) values[i] = position[POSITION_FIELDS[i]!];
  return packr.pack(values);
}

export function decodePosition(bytes: Uint8Array): Position {
  const values = packr.unpack(bytes) as number[];
  const position = createPosition();
  for (let i = 0; i < POSITION_FIELDS.length; i++) position[POSITION_FIELDS[i]!] = values[i]!;
  return position;
}
