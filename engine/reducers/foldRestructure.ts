// Protocol V2 structuring moves, migration and compress (docs/design.md 10; docs/design.md 3): the burned legs
// leave at their average cost (freed basis F); a compress's cash takes F*cash/(cash + minted) of it and realizes
// the rest of the cash against it; the minted legs share what is left in proportion to their amounts, each part
// rounded down and the remainder to the first leg, so basis is conserved. Volume, fees, `invested`, `sharesIn` and
// exits do not change; the move counts as an event for first and last trade times. With nothing minted and no cash
// (a move whose outputs all went to other wallets), the freed basis is realized as a loss, so it is never lost.
// A migration also carries the CTF position's history (carryMigratedHistory): the V2 position goes on from it.
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

/**
 * A CTF position migrated into V2 (one burned leg, one minted, equal amounts) hands its entry history to the V2
 * position in proportion to the shares moved over those held, rounded as basis is and the whole of it with the
 * last held share: the shares, USD and basis that brought the shares in (so `invested`, `sharesIn` and the entry
 * price follow them) and the first trade time. Exits, fills and fees stay where they happened. The wallet's sums
 * do not change: each integer leaves one position and arrives at the other.
 */
function carryMigratedHistory(ctf: Position, v2: Position, amount: number): void {
  const held = Math.max(0, ctf.shares);
  if (held === 0) return;
  const part = (value: number) => (amount >= held ? value : mulDivRound(value, amount, held));
  for (const field of ['boughtShares', 'boughtUsd', 'splitShares', 'receivedShares', 'receivedBasis'] as const) {
    const moved = part(ctf[field]);
    ctf[field] -= moved;
    v2[field] += moved;
  }
  if (v2.firstTradeAt === 0 || ctf.firstTradeAt < v2.firstTradeAt) v2.firstTradeAt = ctf.firstTradeAt;
}

export function foldRestructure(burned: Position[], minted: Position[], event: Restructure<unknown>): void {
  const flags = (event.approx ? FLAG.basisApprox : 0) | (event.migrated ? FLAG.migrated : 0);
  if (event.migrated) carryMigratedHistory(burned[0]!, minted[0]!, event.burnAmounts[0]!);
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
