// A wallet-to-wallet transfer arriving with the basis its sender's position gave up.
import { FLAG, touchPosition, type Position } from './position.js';
import type { TransferIn } from './positionEvent.js';

export function foldTransferIn(position: Position, event: TransferIn<unknown>, basis: number): Position {
  position.shares += event.amount;
  position.costBasis += basis;
  position.receivedShares += event.amount;
  position.receivedBasis += basis;
  position.flags |= FLAG.basisApprox;
  touchPosition(position, event.ts);
  return position;
}
