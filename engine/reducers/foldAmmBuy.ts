// AMM buy (docs/design.md 3): the investment includes the pool's fee, so the basis is fee-inclusive and
// boughtUsd is the part that bought shares.
import { FLAG, touchPosition, type Position } from './position.js';
import type { AmmBuy } from './positionEvent.js';

export function foldAmmBuy(position: Position, event: AmmBuy<unknown>): Position {
  position.shares += event.shares;
  position.costBasis += event.investment;
  position.boughtShares += event.shares;
  position.boughtUsd += event.investment - event.fee;
  position.fees += event.fee;
  position.flags |= FLAG.amm;
  touchPosition(position, event.ts);
  return position;
}
