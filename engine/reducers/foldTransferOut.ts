// A wallet-to-wallet transfer leaving: basis goes with the shares at the sender's average cost, and the
// receiver gets exactly the integer removed here (returned), so basis is conserved.
import { removeBasis } from './removeBasis.js';
import { FLAG, touchPosition, type Position } from './position.js';
import type { TransferOut } from './positionEvent.js';

export function foldTransferOut(position: Position, event: TransferOut<unknown>): number {
  const moved = removeBasis(position, event.amount);
  position.flags |= FLAG.basisApprox;
  touchPosition(position, event.ts);
  return moved;
}
