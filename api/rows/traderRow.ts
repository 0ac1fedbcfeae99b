// Per-market trader rows (spec 2.6): one row per wallet with both outcome legs, valued at marks. A mark is an exact
// ratio of integers (a last fill's usd/shares, a payout's numerator/denominator, a price given in decimal), so
// a leg's value is computed in micro-units and rounded once, as everywhere else (docs/design.md 3).
import { ApiError } from '../apiError.js';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { legValue, type Price } from '../../engine/valuation/marketPrices.js';
import type { MarketHolder } from '../../engine/state/marketReads.js';
import { positionFields, type PositionFields } from './positionFields.js';
import { comboExtras, type ComboReads } from './comboExtras.js';
import type { MarketRecord } from '../../engine/state/marketRecords.js';
import type { Position } from '../../engine/reducers/position.js';
import { MICRO } from '../microUnits.js';

const PRICE_TEXT = /^(?:0?\.\d{1,9}|0|1(?:\.0{1,9})?)$/;

/** A price 0 to 1 written in decimal (at most 9 decimals), exactly; null for any other text. */
export function parsePrice(text: string): Price | null {
  if (!PRICE_TEXT.test(text)) return null;
  const [whole = '0', fraction = ''] = text.split('.');
  const denominator = 10 ** fraction.length;
  return [Number(whole || '0') * denominator + Number(fraction || '0'), denominator];
}

export const priceNumber = (price: Price) => price[0] / price[1];

/** Prices by decimal token id (`<tokenId>:<price>,...`) as prices by outcome index, over `fallback`. */
export function tokenMarks<T extends Price | null>(
  text: string | undefined,
  tokens: string[],
  fallback: T[],
  error: string,
): Array<T | Price> {
  const marks: Array<T | Price> = [...fallback];
  if (text === undefined) return marks;
  const decimals = tokens.map(tokenIdToDecimal);
  for (const entry of text.split(',')) {
    const [token = '', priceText = ''] = entry.split(':');
    const outcome = decimals.indexOf(token);
    const price = parsePrice(priceText);
    if (outcome < 0 || price === null) throw new ApiError(400, error);
    marks[outcome] = price;
  }
  return marks;
}

export interface TraderRow {
  wallet: string;
  realizedPnl: number;
  unrealizedPnl: number;
  totalPnl: number;
  shares: number[];
  outcomes: PositionFields[];
}

/** A trader row with the micro-unit figures it is sorted by. */
export interface TraderFigures {
  holder: MarketHolder;
  realized: number;
  unrealized: number;
  total: number;
}

export function traderFigures(holder: MarketHolder, marks: readonly Price[]): TraderFigures {
  let realized = 0;
  let unrealized = 0;
  for (const legs of [holder.positions, holder.migrated ?? []])
    legs.forEach((position, i) => {
      if (!position) return;
      realized += position.realizedPnl;
      unrealized += legValue(position, marks[i]!) - position.costBasis;
    });
  return { holder, realized, unrealized, total: realized + unrealized };
}

/**
 * The row; a Protocol V2 market's outcome legs carry their ComboExtras (docs/design.md 10). A migrated market's V2 legs
 * follow its CTF legs, each an outcome row of its own with the migration condition's ComboExtras; `shares` holds
 * both ledgers' shares of each outcome.
 */
export function traderRow(
  { holder, realized, unrealized, total }: TraderFigures,
  market: MarketRecord,
  reads: ComboReads,
): TraderRow {
  const outcomes: PositionFields[] = [];
  const shares = [0, 0];
  const add = (legs: ReadonlyArray<Position | null>, record: MarketRecord | null) =>
    legs.forEach((position, i) => {
      if (!position) return;
      outcomes.push(Object.assign(positionFields(holder.wallet, i, position), comboExtras(record, i, position, reads)));
      shares[i] = shares[i]! + position.shares;
    });
  add(holder.positions, market);
  if (holder.migrated) add(holder.migrated, market.migration ? reads.market(market.migration).market : null);
  return {
    wallet: holder.wallet,
    realizedPnl: realized / MICRO,
    unrealizedPnl: unrealized / MICRO,
    totalPnl: total / MICRO,
    shares: shares.map((micros) => micros / MICRO),
    outcomes,
  };
}

/** Best first by the chosen figure, then by wallet, so equal figures always list in the same order. */
export function compareTraders(by: 'total' | 'realized'): (a: TraderFigures, b: TraderFigures) => number {
  return (a, b) =>
    (by === 'total' ? b.total - a.total : b.realized - a.realized) || (a.holder.wallet < b.holder.wallet ? -1 : 1);
}
