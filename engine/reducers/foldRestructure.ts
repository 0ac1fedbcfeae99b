// Protocol V2 structuring moves, migration and compress (DESIGN 10; engine/README.md, Accounting): the burned legs
// leave at their average cost (freed basis F); a compress's cash takes F*cash/(cash + minted) of it and realizes
// the rest of the cash against it; the minted legs share what is left in proportion to their amounts, each part
// rounded down and the remainder to the first leg, so basis is conserved. Volume, fees, `invested`, `sharesIn` and
// exits do not change; the move counts as an event for first and last trade times. With nothing minted and no cash
// (a move whose outputs all went to other wallets), the freed basis is realized as a loss, so it is never lost.
import { mulDivFloor } from './mulDivFloor.js';
import { mulDivRound } from './mulDivRound.js';
import { FLAG, touchPosition, type Position } from './position.js';
import type { Restructure } from './positionEvent.js';
import { removeBasis } from './removeBasis.js';

/** `total` over legs in proportion to `weights`: parts rounded down, the remainder to the first leg. */
function shareByWeight(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const parts = weights.map((weight) => (sum === 0 ? 0 : mulDivFloor(total, weight, sum)));
  parts[0] = parts[0]! + total - parts.reduce((a, b) => a + b, 0);
  return parts;
}

export function foldRestructure(burned: Position[], minted: Position[], event: Restructure<unknown>): void {
  const flags = (event.approx ? FLAG.basisApprox : 0) | (event.migrated ? FLAG.migrated : 0);
  let freed = 0;
  for (let i = 0; i < burned.length; i++) freed += removeBasis(burned[i]!, event.burnAmounts[i]!);
  const mintedTotal = event.mintAmounts.reduce((a, b) => a + b, 0);
  const cashBasis =
    minted.length === 0 ? freed : event.cash === 0 ? 0 : mulDivRound(freed, event.cash, event.cash + mintedTotal);
  const realized = event.cash - cashBasis;
  const realizedParts = shareByWeight(realized, event.burnAmounts);
  for (let i = 0; i < burned.length; i++) {
    const leg = burned[i]!;
    leg.realizedPnl += realizedParts[i]!;
    if (event.cash > 0 && i === 0) {
      // A compress's cash (one burned leg): the resolved part paid out, as a redemption is; the shares not carried
      // into the reduced position count as redeemed.
      leg.redemptions++;
      leg.redeemedShares += Math.max(0, event.burnAmounts[0]! - mintedTotal);
      leg.redeemUsd += event.cash;
    }
    if (event.approx) leg.flags |= FLAG.basisApprox;
    touchPosition(leg, event.ts);
  }
  if (minted.length === 0) return;
  const basisParts = shareByWeight(freed - cashBasis, event.mintAmounts);
  for (let j = 0; j < minted.length; j++) {
    const leg = minted[j]!;
    leg.shares += event.mintAmounts[j]!;
    leg.costBasis += basisParts[j]!;
    leg.flags |= flags;
    touchPosition(leg, event.ts);
  }
}
