// Shares leaving a position take basis at the average cost: avg*q = costBasis*q/shares, rounded once.
// Leaving more than is held takes shares negative; the excess carries no basis and marks partialHistory.
import { mulDivRound } from './mulDivRound.js';
import { FLAG, type Position } from './position.js';

/** Takes `quantity` shares out of the position and returns the basis they carried. */
export function removeBasis(position: Position, quantity: number): number {
  const held = position.shares > 0 ? position.shares : 0;
  let removed = 0;
  if (held > 0) removed = quantity >= held ? position.costBasis : mulDivRound(position.costBasis, quantity, held);
  if (quantity > held) position.flags |= FLAG.partialHistory;
  position.shares -= quantity;
  position.costBasis -= removed;
  return removed;
}
