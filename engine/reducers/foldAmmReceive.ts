// Outcome tokens an AMM pool hands a liquidity provider (funding send-back or removal), at the pool's price:
// an approximation, since the LP's collateral bought a mix of pool shares and tokens.
import { FLAG, touchPosition, type Position } from './position.js';
import type { AmmReceive } from './positionEvent.js';

export function foldAmmReceive(position: Position, event: AmmReceive<unknown>): Position {
  position.shares += event.shares;
  position.costBasis += event.cost;
  position.receivedShares += event.shares;
  position.receivedBasis += event.cost;
  position.flags |= FLAG.amm | FLAG.basisApprox;
  touchPosition(position, event.ts);
  return position;
}
