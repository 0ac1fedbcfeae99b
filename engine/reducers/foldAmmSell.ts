// AMM sell (docs/design.md 3): the pool pays the return net of its fee, so soldUsd adds the fee back.
import { removeBasis } from './removeBasis.js';
import { FLAG, touchPosition, type Position } from './position.js';
import type { AmmSell } from './positionEvent.js';

export function foldAmmSell(position: Position, event: AmmSell<unknown>): Position {
  const removed = removeBasis(position, event.shares);
  position.realizedPnl += event.proceeds - removed;
  position.soldShares += event.shares;
  position.soldUsd += event.proceeds + event.fee;
  position.fees += event.fee;
  position.flags |= FLAG.amm;
  touchPosition(position, event.ts);
  return position;
}
