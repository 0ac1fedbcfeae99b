// Order-book sell (docs/design.md 3): basis leaves at the average cost, realized = proceeds net of the USD
// fee minus that basis.
import { removeBasis } from './removeBasis.js';
import { touchPosition, type Position } from './position.js';
import type { BookSell } from './positionEvent.js';

export function foldBookSell(position: Position, event: BookSell<unknown>): Position {
  const removed = removeBasis(position, event.shares);
  position.realizedPnl += event.usd - event.feeUsd - removed;
  position.soldShares += event.shares;
  position.soldUsd += event.usd;
  position.fees += event.feeUsd;
  position.fills += 1;
  touchPosition(position, event.ts);
  return position;
}
