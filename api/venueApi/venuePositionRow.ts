// A held position in the Data API's /positions shape (docs/venue-api.md, Positions): tally's own figures, in its
// names. Values in micro-units until the row is made; the money becomes USD numbers only here.
import type { Static } from 'typebox';
import type { VenuePosition } from '../schemas/venueSchemas.js';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { legValue, outcomeMark } from '../../engine/valuation/marketPrices.js';
import { MICRO } from '../microUnits.js';
import type { WalletPosition } from '../rows/readWalletPositions.js';
import { venueConditionId } from './venueConditionId.js';
import { venueMarketFields } from './venueMarketFields.js';

export type VenuePositionRow = Static<typeof VenuePosition>;

/**
 * The row of `p`, a position of a known market; `held(token)` is the wallet's shares of a token (micro-units), for
 * `mergeable`: both outcomes held in an unresolved market.
 */
export function venuePositionRow(wallet: string, p: WalletPosition, held: (token: string) => number): VenuePositionRow {
  const market = p.market!;
  const { position, outcomeIndex, metadata } = p;
  const mark = outcomeMark(market, outcomeIndex);
  const valueMicros = mark === null ? 0 : legValue(position, mark.price);
  const cashMicros = valueMicros - position.costBasis;
  const investedMicros = position.boughtUsd + position.splitShares / 2;
  const opposite = market.tokens?.[1 - outcomeIndex] ?? null;
  const outcomes = metadata?.outcomes ?? null;
  return {
    proxyWallet: wallet,
    asset: tokenIdToDecimal(p.token),
    conditionId: venueConditionId(market),
    size: position.shares / MICRO,
    avgPrice: position.shares > 0 ? position.costBasis / position.shares : 0,
    initialValue: position.costBasis / MICRO,
    currentValue: valueMicros / MICRO,
    cashPnl: cashMicros / MICRO,
    percentPnl: position.costBasis > 0 ? (cashMicros / position.costBasis) * 100 : 0,
    totalBought: (position.boughtShares + position.splitShares + position.receivedShares) / MICRO,
    realizedPnl: position.realizedPnl / MICRO,
    percentRealizedPnl: investedMicros > 0 ? (position.realizedPnl / investedMicros) * 100 : 0,
    curPrice: mark === null ? 0 : mark.price[0] / mark.price[1],
    redeemable: p.micros.resolved && position.shares > 0 && p.micros.settle![0] > 0,
    mergeable: !p.micros.resolved && opposite !== null && position.shares > 0 && held(opposite) > 0,
    ...venueMarketFields(metadata, outcomeIndex),
    oppositeOutcome: outcomes?.[1 - outcomeIndex] ?? '',
    oppositeAsset: opposite === null ? '' : tokenIdToDecimal(opposite),
    endDate: metadata?.endDate ?? '',
    negativeRisk: p.view?.negRisk ?? false,
  };
}
