// The state of one position (one wallet x one outcome token), in integer micro-units (docs/design.md 3).
// Counters beyond the spec's Position fields exist because WalletRow (received*, lowSinceTs) and the leaderboard
// (redemptions) need them.
import { assert } from '../assert.js';

export const FLAG = { partialHistory: 1, basisApprox: 2, converted: 4, amm: 8, migrated: 16 } as const;

/** 0.1 share: below it a position counts as exited (WalletRow `open`, `exitAt`). */
export const OPEN_THRESHOLD_MICROS = 100_000;

export interface Position {
  shares: number;
  costBasis: number;
  realizedPnl: number;
  boughtShares: number;
  boughtUsd: number;
  soldShares: number;
  soldUsd: number;
  splitShares: number;
  mergedShares: number;
  mergeUsd: number;
  redeemedShares: number;
  redeemUsd: number;
  fees: number;
  fills: number;
  /** Shares that arrived by transfer, conversion or AMM funding, and the basis they brought. */
  receivedShares: number;
  receivedBasis: number;
  firstTradeAt: number;
  lastTradeAt: number;
  /** Time of the event that last took the balance below 0.1 share; 0 while at or above it. */
  lowSinceTs: number;
  /** Redemption events that touched the market through this position (counted on one outcome an event). */
  redemptions: number;
  flags: number;
}

export function createPosition(): Position {
  return {
    shares: 0,
    costBasis: 0,
    realizedPnl: 0,
    boughtShares: 0,
    boughtUsd: 0,
    soldShares: 0,
    soldUsd: 0,
    splitShares: 0,
    mergedShares: 0,
    mergeUsd: 0,
    redeemedShares: 0,
    redeemUsd: 0,
    fees: 0,
    fills: 0,
    receivedShares: 0,
    receivedBasis: 0,
    firstTradeAt: 0,
    lastTradeAt: 0,
    lowSinceTs: 0,
    redemptions: 0,
    flags: 0,
  };
}

/**
 * What every position satisfies after every event (docs/design.md 3): basis never goes below zero (shares leave at
 * most the basis held, an excess carries none), and the counters only add the unsigned amounts of the chain's events.
 */
function assertPosition(position: Position): void {
  assert(position.costBasis >= 0, "a position's cost basis is not negative");
  assert(
    position.boughtShares >= 0 &&
      position.boughtUsd >= 0 &&
      position.soldShares >= 0 &&
      position.soldUsd >= 0 &&
      position.splitShares >= 0 &&
      position.mergedShares >= 0 &&
      position.mergeUsd >= 0 &&
      position.redeemedShares >= 0 &&
      position.redeemUsd >= 0 &&
      position.fees >= 0 &&
      position.fills >= 0 &&
      position.receivedShares >= 0 &&
      position.receivedBasis >= 0 &&
      position.redemptions >= 0,
    "a position's counters are not negative",
  );
}

/** Every event on a position ends here: times, the below-threshold marker and the invariants. */
export function touchPosition(position: Position, ts: number): void {
  if (position.firstTradeAt === 0 || ts < position.firstTradeAt) position.firstTradeAt = ts;
  if (ts > position.lastTradeAt) position.lastTradeAt = ts;
  if (position.shares < OPEN_THRESHOLD_MICROS) {
    if (position.lowSinceTs === 0) position.lowSinceTs = ts;
  } else {
    position.lowSinceTs = 0;
  }
  assertPosition(position);
}
