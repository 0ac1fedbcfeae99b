// A wallet's result in one market (docs/design.md 4: "the sum over its positions in that market"), in micro-units, as
// of the rollup's block: what the board row and every windowed row are summed from. Pure: the same positions,
// market and marks give the same result.
import { FLAG, type Position } from '../reducers/position.js';
import type { MarketRecord } from '../state/marketRecords.js';
import { defaultMarks, legValue, type Price } from '../valuation/marketPrices.js';
import { settlement } from '../valuation/positionSettlement.js';

export interface MarketResult {
  /** The market: a condition's state id (space ID_SPACE.condition), or a token's that no condition explains. */
  space: number;
  id: number;
  /** Index into BOARD_CATEGORIES. */
  category: number;
  /** Sum of the positions' settledPnl (spec 2.3). */
  settledPnl: number;
  /** Sum of `invested`: bought USD plus split shares at 0.5 (may end in half a micro-unit). */
  invested: number;
  boughtUsd: number;
  soldUsd: number;
  boughtShares: number;
  soldShares: number;
  fees: number;
  fills: number;
  redemptions: number;
  /** First and last event of any kind on its positions. */
  firstAt: number;
  lastAt: number;
  /** When it was decided (every position exited or held into the resolution): the latest exit; 0 while not. */
  decidedAt: number;
  /** A position's basis was approximated, or it saw less history than it sold (basisApprox or partialHistory). */
  approx: boolean;
  /** The open book: positions held (0.1 share or more) in the unresolved market, their value at the marks and cost. */
  openCount: number;
  openValue: number;
  openCost: number;
}

/**
 * A position of the market with its outcome index (-1 for a token no condition explains) and the condition that
 * settles and marks it: the market's, or for a migrated market's second-ledger position its migration condition's.
 */
export interface MarketLeg {
  position: Position;
  outcomeIndex: number;
  market: MarketRecord | null;
}

/** The price of a token no market explains: nothing is known of it, so the split price. */
const UNKNOWN_MARK: Price = [1, 2];
const APPROX = FLAG.basisApprox | FLAG.partialHistory;

/**
 * The result of `legs` (a wallet's positions in one market). Open positions are valued at the market's default
 * marks (the last fill; the complement of the other outcome's; else 0.5), as the traders route values them.
 */
export function marketResult(space: number, id: number, category: number, legs: readonly MarketLeg[]): MarketResult {
  const result: MarketResult = {
    space,
    id,
    category,
    settledPnl: 0,
    invested: 0,
    boughtUsd: 0,
    soldUsd: 0,
    boughtShares: 0,
    soldShares: 0,
    fees: 0,
    fills: 0,
    redemptions: 0,
    firstAt: 0,
    lastAt: 0,
    decidedAt: 0,
    approx: false,
    openCount: 0,
    openValue: 0,
    openCost: 0,
  };
  let decided = true;
  // The default marks of the last leg's record: the legs of one condition follow each other.
  let marked: MarketRecord | null = null;
  let marks: Price[] | null = null;
  for (const { position, outcomeIndex, market } of legs) {
    const settled = settlement(position, market, outcomeIndex);
    result.settledPnl += settled.settledPnl;
    result.invested += position.boughtUsd + position.splitShares / 2;
    result.boughtUsd += position.boughtUsd;
    result.soldUsd += position.soldUsd;
    result.boughtShares += position.boughtShares;
    result.soldShares += position.soldShares;
    result.fees += position.fees;
    result.fills += position.fills;
    result.redemptions += position.redemptions;
    if (result.firstAt === 0 || (position.firstTradeAt !== 0 && position.firstTradeAt < result.firstAt))
      result.firstAt = position.firstTradeAt;
    result.lastAt = Math.max(result.lastAt, position.lastTradeAt);
    if ((position.flags & APPROX) !== 0) result.approx = true;
    if (settled.exitAt === null) decided = false;
    else result.decidedAt = Math.max(result.decidedAt, settled.exitAt);
    if (settled.open) {
      if (market !== marked) {
        marked = market;
        marks = market ? defaultMarks(market) : null;
      }
      result.openCount++;
      result.openValue += legValue(position, marks && outcomeIndex >= 0 ? marks[outcomeIndex]! : UNKNOWN_MARK);
      result.openCost += position.costBasis;
    }
  }
  if (!decided) result.decidedAt = 0;
  return result;
}
