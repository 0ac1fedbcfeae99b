// A wallet's splits, merges, redemptions and conversions (docs/venue-api.md, Activity): what the Data API's
// /activity lists beside trades. One value a move, under the wallet's id, then the block and the log index (the
// derive step moves a wallet once a log), so a wallet's moves are one range in chain order. The fold keeps them
// with the fills (the trade store).
import { assert } from '../assert.js';
import { u32Key } from './stateKeys.js';

export const MOVE_KIND = { split: 1, merge: 2, redemption: 3, conversion: 4 } as const;
export type MoveKind = (typeof MOVE_KIND)[keyof typeof MOVE_KIND];

export interface WalletMove {
  kind: MoveKind;
  block: number;
  logIndex: number;
  ts: number;
  /** The transaction's hash, 0x + 64 hex. */
  tx: string;
  /**
   * The condition whose market the move names (0x + 64 hex): a split's or merge's (a set over many markets, its first
   * leg's), a redemption's, a conversion's first NO leg.
   */
  market: string;
  /**
   * Shares moved, micro-units: a split's or merge's sets, a conversion's NO shares of each leg, a redemption's
   * payout.
   */
  size: number;
  /** Collateral moved, micro-units: paid in (split), out (merge, redemption, a conversion's cash). */
  usdc: number;
}

const KEY_LENGTH = 12;
/** Kind, market id, transaction, size; a conversion's cash after it (the other kinds move as much cash as shares). */
const VALUE_LENGTH = 1 + 4 + 32 + 8;
const CONVERSION_LENGTH = VALUE_LENGTH + 8;
const HASH = /^0x[0-9a-f]{64}$/;

/** A move's key: wallet id, block, log index (u32 each). */
export function walletMoveKey(walletId: number, block: number, logIndex: number): string {
  const key = u32Key(walletId) + u32Key(block) + u32Key(logIndex);
  assert(key.length === KEY_LENGTH, 'a wallet move key is 12 characters');
  return key;
}

/** A move as stored: its market by the state's condition id; its time is its block's (the block record's). */
export function encodeWalletMove(move: Pick<WalletMove, 'kind' | 'tx' | 'size' | 'usdc'>, marketId: number): Buffer {
  // The derive step's amounts are decoded uints or sums of them; hashes are 32-byte words, ids u32s.
  assert(Number.isSafeInteger(move.size) && move.size >= 0, 'a move moves whole micro-shares');
  assert(Number.isSafeInteger(move.usdc) && move.usdc >= 0, 'a move moves whole micro-dollars');
  assert(HASH.test(move.tx), "a move's transaction is a 32-byte word");
  assert(marketId >>> 0 === marketId, "a move's market is a state id");
  const conversion = move.kind === MOVE_KIND.conversion;
  // walletMoveOf: a split, merge or redemption moves as much cash as shares; only a conversion's differ.
  assert(conversion || move.usdc === move.size, "a move other than a conversion moves its size's cash");
  const bytes = Buffer.allocUnsafe(conversion ? CONVERSION_LENGTH : VALUE_LENGTH);
  bytes[0] = move.kind;
  bytes.writeUInt32BE(marketId, 1);
  bytes.write(move.tx.slice(2), 5, 32, 'hex');
  bytes.writeDoubleBE(move.size, 37);
  if (conversion) bytes.writeDoubleBE(move.usdc, 45);
  return bytes;
}

/** A stored move read back, its market's text and its block's time given by the reader. */
export function decodeWalletMove(
  key: Buffer,
  value: Buffer,
  marketText: (id: number) => string,
  blockTs: (block: number) => number,
): WalletMove {
  const kind = value[0] as MoveKind;
  assert(kind >= MOVE_KIND.split && kind <= MOVE_KIND.conversion, 'a stored move is of a move kind');
  const conversion = kind === MOVE_KIND.conversion;
  assert(
    key.length === KEY_LENGTH && value.length === (conversion ? CONVERSION_LENGTH : VALUE_LENGTH),
    'a wallet move is a 12-byte key and its value',
  );
  const block = key.readUInt32BE(4);
  const size = value.readDoubleBE(37);
  return {
    kind,
    block,
    logIndex: key.readUInt32BE(8),
    ts: blockTs(block),
    tx: '0x' + value.toString('hex', 5, 37),
    market: marketText(value.readUInt32BE(1)),
    size,
    usdc: conversion ? value.readDoubleBE(45) : size,
  };
}
