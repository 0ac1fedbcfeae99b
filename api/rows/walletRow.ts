// WalletRow (spec 2.3): a position settled against its market's resolution, with the rules of engine/README.md,
// Accounting. Money is computed in micro-units (settlement rounded once, half away from zero) and converted last.
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import type { Position } from '../../engine/reducers/position.js';
import type { PositionSettlement } from '../../engine/valuation/positionSettlement.js';
import type { MarketRecord } from '../../engine/state/marketRecords.js';
import { positionFields, type PositionFields } from './positionFields.js';
import type { ComboExtras } from './comboExtras.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import { MICRO } from '../microUnits.js';

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

/** The full row, built only for the rows an answer returns. */
export function walletRow(
  wallet: string,
  token: string,
  position: Position,
  market: MarketRecord | null,
  outcomeIndex: number,
  micros: PositionSettlement,
  extras: ComboExtras | null = null,
): WalletRow | (WalletRow & ComboExtras) {
  const { resolved, settle, settledPnl } = micros;
  const investedMicros = position.boughtUsd + position.splitShares / 2;
  const sharesIn = position.boughtShares + position.splitShares + position.receivedShares;
  const exited = position.soldShares + position.mergedShares + position.redeemedShares;
  // Object.assign onto the fresh fields object: a spread plus properties costs ~25 us a row in this V8.
  return Object.assign(positionFields(wallet, outcomeIndex, position), {
    tokenId: tokenIdToDecimal(token),
    conditionId: market ? publicConditionId(market) : null,
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
    ...extras,
  });
}
