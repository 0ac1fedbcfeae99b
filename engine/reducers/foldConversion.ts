// Neg-risk conversion (docs/design.md 3): n of each of k NO tokens become n(1-r) of each YES token of the
// other questions plus (k-1)n(1-r) collateral. The NO legs leave at their average cost (freed basis F); the
// cash released is C; the YES legs share what the cash did not cover, max(0, F-C), and the NO legs realize
// C-F when the cash exceeds the basis. With no YES legs left to carry it, F-C is realized (as a loss) on
// the NO legs, so basis is never lost. Parts are split evenly, remainder to the lowest question index.
import { removeBasis } from './removeBasis.js';
import { splitEvenly } from './splitEvenly.js';
import { FLAG, touchPosition, type Position } from './position.js';
import type { Conversion } from './positionEvent.js';

/** n(1-r): what each YES leg gains, and each of the k-1 sets of NO is worth in cash, the fee rounded down. */
export function conversionOut(event: Conversion<unknown>): number {
  return event.amount - Math.floor((event.amount * event.feeBips) / 10_000);
}

export function foldConversion(noLegs: Position[], yesLegs: Position[], event: Conversion<unknown>): void {
  const out = conversionOut(event);
  let freed = 0;
  for (const leg of noLegs) freed += removeBasis(leg, event.amount);
  const cash = (noLegs.length - 1) * out;
  const carried = yesLegs.length > 0 ? Math.max(0, freed - cash) : 0;
  const realized = yesLegs.length > 0 ? Math.max(0, cash - freed) : cash - freed;
  const realizedParts = splitEvenly(realized, noLegs.length);
  for (let i = 0; i < noLegs.length; i++) {
    const leg = noLegs[i]!;
    leg.realizedPnl += realizedParts[i]!;
    leg.flags |= FLAG.converted | FLAG.basisApprox;
    touchPosition(leg, event.ts);
  }
  if (yesLegs.length === 0) return;
  const basisParts = splitEvenly(carried, yesLegs.length);
  for (let i = 0; i < yesLegs.length; i++) {
    const leg = yesLegs[i]!;
    leg.shares += out;
    leg.costBasis += basisParts[i]!;
    leg.receivedShares += out;
    leg.receivedBasis += basisParts[i]!;
    leg.flags |= FLAG.converted | FLAG.basisApprox;
    touchPosition(leg, event.ts);
  }
}
