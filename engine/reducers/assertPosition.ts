// What every position satisfies after every event (docs/design.md 3), checked where each event ends
// (touchPosition): basis never goes below zero (shares leave at most the basis held, an excess carries none),
// and the counters only add the unsigned amounts of the chain's events.
import { assert } from '../assert.js';
import type { Position } from './position.js';

export function assertPosition(position: Position): void {
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
