// Redemption after resolution (docs/design.md 3). The adapter's event says how many of each token went in;
// the CTF's does not, so its held quantity is the tracked balance, and a payout above what those balances
// explain is booked on the winning outcome as shares redeemed with no basis (which marks partialHistory).
import { removeBasis } from './removeBasis.js';
import { mulDivRound } from './mulDivRound.js';
import { mulDivFloor } from './mulDivFloor.js';
import { touchPosition, type Position } from './position.js';
import type { Redemption } from './positionEvent.js';

export function foldRedemption(positions: Position[], event: Redemption<unknown>): Position[] {
  const n = positions.length;
  const quantities = new Array<number>(n);
  const payouts = new Array<number>(n);
  let explained = 0;
  let winner = -1;
  for (let i = 0; i < n; i++) {
    const held = event.amounts ? event.amounts[i]! : Math.max(0, positions[i]!.shares);
    quantities[i] = held;
    // The CTF pays each index set floor(balance * numerator / denominator).
    payouts[i] = mulDivFloor(held, event.numerators[i]!, event.denominator);
    explained += payouts[i]!;
    if (event.numerators[i]! > 0 && (winner < 0 || event.numerators[i]! > event.numerators[winner]!)) winner = i;
  }
  if (event.amounts === null && winner >= 0 && event.payout > explained) {
    const excess = event.payout - explained;
    quantities[winner] = quantities[winner]! + mulDivRound(excess, event.denominator, event.numerators[winner]!);
    payouts[winner] = payouts[winner]! + excess;
  }
  let counted = false;
  for (let i = 0; i < n; i++) {
    // A listed outcome the wallet neither held nor was paid for is left untouched.
    if (quantities[i] === 0 && payouts[i] === 0) continue;
    const position = positions[i]!;
    // One event, one redemption: counted on the first outcome it touched, so a market's positions sum to its events.
    if (!counted) position.redemptions++;
    counted = true;
    const removed = removeBasis(position, quantities[i]!);
    position.realizedPnl += payouts[i]! - removed;
    position.redeemedShares += quantities[i]!;
    position.redeemUsd += payouts[i]!;
    touchPosition(position, event.ts);
  }
  return positions;
}
