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
const VALUE_LENGTH = 1 + 4 + 32 + 32 + 8 + 8;
const HASH = /^0x[0-9a-f]{64}$/;

/** A move's key: wallet id, block, log index (u32 each). */
export function walletMoveKey(walletId: number, block: number, logIndex: number): string {
  const key = u32Key(walletId) + u32Key(block) + u32Key(logIndex);
  assert(key.length === KEY_LENGTH, 'a wallet move key is 12 characters');
  return key;
}

export function encodeWalletMove(move: WalletMove): Buffer {
  // The derive step's amounts are decoded uints or sums of them; hashes and condition ids are 32-byte words.
  assert(Number.isSafeInteger(move.size) && move.size >= 0, 'a move moves whole micro-shares');
  assert(Number.isSafeInteger(move.usdc) && move.usdc >= 0, 'a move moves whole micro-dollars');
  assert(HASH.test(move.tx) && HASH.test(move.market), "a move's transaction and market are 32-byte words");
  const bytes = Buffer.allocUnsafe(VALUE_LENGTH);
  bytes[0] = move.kind;
  bytes.writeUInt32BE(move.ts, 1);
  bytes.write(move.tx.slice(2), 5, 32, 'hex');
  bytes.write(move.market.slice(2), 37, 32, 'hex');
  bytes.writeDoubleBE(move.size, 69);
  bytes.writeDoubleBE(move.usdc, 77);
  return bytes;
}

export function decodeWalletMove(key: Buffer, value: Buffer): WalletMove {
  assert(key.length === KEY_LENGTH && value.length === VALUE_LENGTH, 'a wallet move is a 12-byte key and its value');
  const kind = value[0] as MoveKind;
  assert(kind >= MOVE_KIND.split && kind <= MOVE_KIND.conversion, 'a stored move is of a move kind');
  return {
    kind,
    block: key.readUInt32BE(4),
    logIndex: key.readUInt32BE(8),
    ts: value.readUInt32BE(1),
    tx: '0x' + value.toString('hex', 5, 37),
    market: '0x' + value.toString('hex', 37, 69),
    size: value.readDoubleBE(69),
    usdc: value.readDoubleBE(77),
  };
}
