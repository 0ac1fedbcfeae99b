// Order-book buy (docs/design.md 3): shares that actually arrived (less a V1 share fee), basis = USDC that
// actually left (plus a V2 USD fee); the fee is counted in USD, a share fee valued at the fill price.
import { mulDivRound } from './mulDivRound.js';
import { touchPosition, type Position } from './position.js';
import type { BookBuy } from './positionEvent.js';

export function foldBookBuy(position: Position, event: BookBuy<unknown>): Position {
  const feeUsd = event.feeUsd + (event.feeShares > 0 ? mulDivRound(event.feeShares, event.usd, event.shares) : 0);
  position.shares += event.shares - event.feeShares;
  position.costBasis += event.usd + event.feeUsd;
  position.boughtShares += event.shares;
  position.boughtUsd += event.usd;
  position.fees += feeUsd;
  position.fills += 1;
  touchPosition(position, event.ts);
  return position;
}
