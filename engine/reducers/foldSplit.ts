// Split of n collateral into n of each outcome: a full set costs $1, so each side takes half the basis
// (the odd micro-unit to outcome 0, so the halves sum to n exactly). Through the neg-risk adapter that basis
// counts as approximated (spec 2.2: "transfers, conversions or neg-risk splits").
import { splitEvenly } from './splitEvenly.js';
import { FLAG, touchPosition, type Position } from './position.js';
import type { Split } from './positionEvent.js';

export function foldSplit(positions: Position[], event: Split<unknown>): Position[] {
  const halves = splitEvenly(event.amount, positions.length);
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i]!;
    position.shares += event.amount;
    position.costBasis += halves[i]!;
    position.splitShares += event.amount;
    if (event.viaAdapter) position.flags |= FLAG.basisApprox;
    touchPosition(position, event.ts);
  }
  return positions;
}
