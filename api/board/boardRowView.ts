// A leaderboard row (spec 2.5) from its micro-unit sums (engine/rollup/boardRow.ts): money in USD, the ratios of
// docs/design.md 4 divided here, best and worst with their market's metadata.
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import type { BoardRow, RankedMarket } from '../../engine/state/boardRecords.js';
import type { RouteContext } from '../routeContext.js';
import { MICRO } from '../microUnits.js';

export interface RankedMarketView {
  pnl: number;
  conditionId: string;
  question: string;
  slug: string;
  eventSlug: string;
  image: string | null;
}

function rankedMarketView(ctx: RouteContext, market: RankedMarket | null): RankedMarketView | null {
  if (market === null) return null;
  const entry = ctx.reads.market(ctx.state.idText(ID_SPACE.condition, market.id));
  const conditionId = entry.market ? publicConditionId(entry.market) : ctx.state.idText(ID_SPACE.condition, market.id);
  const metadata = entry.metadata;
  // The spec types question, slug and eventSlug as strings: a market without metadata gives empty ones.
  return {
    pnl: market.pnl / MICRO,
    conditionId,
    question: metadata?.question ?? '',
    slug: metadata?.slug ?? '',
    eventSlug: metadata?.eventSlug ?? '',
    image: metadata?.image ?? null,
  };
}

export function boardRowView(ctx: RouteContext, wallet: string, category: string, updatedAt: number, row: BoardRow) {
  const totalPnl = row.realizedPnl + row.unrealizedPnl;
  return {
    wallet,
    category,
    totalPnl: totalPnl / MICRO,
    realizedPnl: row.realizedPnl / MICRO,
    unrealizedPnl: row.unrealizedPnl / MICRO,
    capital: row.capital / MICRO,
    roi: row.capital > 0 ? (totalPnl / row.capital) * 100 : 0,
    volume: (row.buyVolume + row.sellVolume) / MICRO,
    buyVolume: row.buyVolume / MICRO,
    sellVolume: row.sellVolume / MICRO,
    shareVolume: row.shareVolume / MICRO,
    fees: row.fees / MICRO,
    fills: row.fills,
    marketsTraded: row.marketsTraded,
    marketsDecided: row.marketsDecided,
    marketsWon: row.marketsWon,
    marketsLost: row.marketsLost,
    winRate: row.marketsDecided > 0 ? (row.marketsWon / row.marketsDecided) * 100 : 0,
    // No losses: the factor is infinite when there are wins (flagged, shown as 0) and 0 with neither.
    profitFactor: row.lossesUsd < 0 ? row.winsUsd / -row.lossesUsd : 0,
    profitFactorInfinite: row.winsUsd > 0 && row.lossesUsd === 0,
    winsUsd: row.winsUsd / MICRO,
    lossesUsd: row.lossesUsd / MICRO,
    avgWin: row.marketsWon > 0 ? row.winsUsd / row.marketsWon / MICRO : 0,
    avgLoss: row.marketsLost > 0 ? row.lossesUsd / row.marketsLost / MICRO : 0,
    best: rankedMarketView(ctx, row.best),
    worst: rankedMarketView(ctx, row.worst),
    avgHoldSeconds: row.marketsDecided > 0 ? row.holdSeconds / row.marketsDecided : 0,
    redemptions: row.redemptions,
    firstActivityAt: row.firstActivityAt,
    lastActivityAt: row.lastActivityAt,
    updatedAt,
    open: { count: row.openCount, value: row.openValue / MICRO, cost: row.openCost / MICRO },
    approxMarkets: row.approxMarkets,
  };
}

export type BoardRowView = ReturnType<typeof boardRowView>;
