// Merge of n of each outcome back into n collateral: each side is sold for half (odd micro-unit to outcome 0).
import { removeBasis } from './removeBasis.js';
import { splitEvenly } from './splitEvenly.js';
import { touchPosition, type Position } from './position.js';
import type { Merge } from './positionEvent.js';

export function foldMerge(positions: Position[], event: Merge<unknown>): Position[] {
  const halves = splitEvenly(event.amount, positions.length);
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i]!;
    const removed = removeBasis(position, event.amount);
    position.realizedPnl += halves[i]! - removed;
    position.mergedShares += event.amount;
    position.mergeUsd += halves[i]!;
    touchPosition(position, event.ts);
  }
  return positions;
}
