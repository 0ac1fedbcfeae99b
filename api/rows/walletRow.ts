// WalletRow (spec 2.3): a position settled against its market's resolution, with the rules of engine/README.md,
// Accounting. Money is computed in micro-units (settlement rounded once, half away from zero) and converted last.
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { mulDivRound } from '../../engine/reducers/mulDivRound.js';
import { OPEN_THRESHOLD_MICROS, type Position } from '../../engine/reducers/position.js';
import type { MarketRecord } from '../../engine/state/marketRecords.js';
import { positionFields, type PositionFields } from './positionFields.js';

const MICRO = 1_000_000;

export interface WalletRow extends PositionFields {
  tokenId: string;
  conditionId: string | null;
  resolved: boolean;
  settle: number | null;
  resolvedAt: number | null;
  settledPnl: number;
  invested: number;
  sharesIn: number;
  entryPrice: number;
  pnlPct: number | null;
  avgExitPrice: number | null;
  open: boolean;
  redeemable: boolean;
  exitAt: number | null;
}

/** What the filters and sorts need, still in micro-units: cheap, so it is worked out for every position. */
export interface WalletRowMicros {
  resolved: boolean;
  /** Settlement numerator/denominator of this outcome, or null while unresolved. */
  settle: [number, number] | null;
  settledPnl: number;
  /** Held (at least the open threshold) in an unresolved market. */
  open: boolean;
  exitAt: number | null;
}

export function settlement(position: Position, market: MarketRecord | null, outcomeIndex: number): WalletRowMicros {
  const resolved = market !== null && market.payoutDenominator > 0 && market.payoutNumerators !== null && outcomeIndex >= 0;
  const settle: [number, number] | null = resolved ? [market.payoutNumerators![outcomeIndex] ?? 0, market.payoutDenominator] : null;
  // The payout of the shares still held: a negative balance (history tally did not see) holds nothing (spec 2.3).
  const settledPnl = position.realizedPnl
    + (settle ? mulDivRound(Math.max(position.shares, 0), settle[0], settle[1]) - position.costBasis : 0);
  const holding = position.shares >= OPEN_THRESHOLD_MICROS;
  let exitAt: number | null = null;
  if (resolved) {
    // Held into the resolution (still held, or it dropped below 0.1 share after it): the resolution time.
    const heldIntoIt = position.lowSinceTs === 0 || position.lowSinceTs > market.resolvedAt;
    exitAt = heldIntoIt ? market.resolvedAt : position.lastTradeAt;
  } else if (!holding) {
    exitAt = position.lastTradeAt;
  }
  return { resolved, settle, settledPnl, open: !resolved && holding, exitAt };
}

/** The full row, built only for the rows an answer returns. */
export function walletRow(
  wallet: string, token: string, position: Position, market: MarketRecord | null, outcomeIndex: number, micros: WalletRowMicros,
): WalletRow {
  const { resolved, settle, settledPnl } = micros;
  const investedMicros = position.boughtUsd + position.splitShares / 2;
  const sharesIn = position.boughtShares + position.splitShares + position.receivedShares;
  const exited = position.soldShares + position.mergedShares + position.redeemedShares;
  // Object.assign onto the fresh fields object: a spread plus properties costs ~25 us a row in this V8.
  return Object.assign(positionFields(wallet, outcomeIndex, position), {
    tokenId: tokenIdToDecimal(token),
    conditionId: market ? market.conditionId : null,
    resolved,
    settle: settle ? settle[0] / settle[1] : null,
    resolvedAt: resolved ? market!.resolvedAt : null,
    settledPnl: settledPnl / MICRO,
    invested: investedMicros / MICRO,
    sharesIn: sharesIn / MICRO,
    entryPrice: sharesIn > 0 ? (position.boughtUsd + position.splitShares / 2 + position.receivedBasis) / sharesIn : 0,
    pnlPct: investedMicros > 0 ? (settledPnl / investedMicros) * 100 : null,
    avgExitPrice: exited > 0 ? (position.soldUsd + position.mergeUsd + position.redeemUsd) / exited : null,
    open: micros.open,
    redeemable: resolved && position.shares > 0 && settle![0] > 0,
    exitAt: micros.exitAt,
  });
}
