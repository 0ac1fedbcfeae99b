// A position's spec 2.2 fields: micro-units to USD numbers and shares, ratios as plain divisions of the
// micro-unit integers (docs/design.md 3). The API edge is the only place money becomes a float.
import { FLAG, type Position } from '../../engine/reducers/position.js';
import { MICRO } from '../microUnits.js';

export interface PositionFields {
  wallet: string;
  outcomeIndex: number;
  shares: number;
  costBasis: number;
  avgPrice: number;
  avgBuyPrice: number;
  realizedPnl: number;
  boughtShares: number;
  boughtUsd: number;
  soldShares: number;
  soldUsd: number;
  avgSellPrice: number;
  splitShares: number;
  mergedShares: number;
  mergeUsd: number;
  redeemedShares: number;
  redeemUsd: number;
  fees: number;
  fills: number;
  firstTradeAt: number;
  lastTradeAt: number;
  partialHistory: boolean;
  basisApprox: boolean;
  converted: boolean;
  amm: boolean;
}

export function positionFields(wallet: string, outcomeIndex: number, p: Position): PositionFields {
  return {
    wallet,
    outcomeIndex,
    shares: p.shares / MICRO,
    costBasis: p.costBasis / MICRO,
    avgPrice: p.shares > 0 ? p.costBasis / p.shares : 0,
    avgBuyPrice: p.boughtShares > 0 ? p.boughtUsd / p.boughtShares : 0,
    realizedPnl: p.realizedPnl / MICRO,
    boughtShares: p.boughtShares / MICRO,
    boughtUsd: p.boughtUsd / MICRO,
    soldShares: p.soldShares / MICRO,
    soldUsd: p.soldUsd / MICRO,
    avgSellPrice: p.soldShares > 0 ? p.soldUsd / p.soldShares : 0,
    splitShares: p.splitShares / MICRO,
    mergedShares: p.mergedShares / MICRO,
    mergeUsd: p.mergeUsd / MICRO,
    redeemedShares: p.redeemedShares / MICRO,
    redeemUsd: p.redeemUsd / MICRO,
    fees: p.fees / MICRO,
    fills: p.fills,
    firstTradeAt: p.firstTradeAt,
    lastTradeAt: p.lastTradeAt,
    partialHistory: (p.flags & FLAG.partialHistory) !== 0,
    basisApprox: (p.flags & FLAG.basisApprox) !== 0,
    converted: (p.flags & FLAG.converted) !== 0,
    amm: (p.flags & FLAG.amm) !== 0,
  };
}
