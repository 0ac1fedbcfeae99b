// GET /v1/markets/{conditionId}/holder-lines (spec 4.6, docs/design.md 5): per outcome, two groups of `top` wallets
// (1 to 50, clamped; default 10). `holders`: the biggest holders among wallets that bought (split-only market
// makers, who never bought, are left out). `traders`: the best PnL on that outcome, open shares valued at the live
// price given for the token in `prices` (`<tokenId>:<price>,...`); with no price, open shares count nothing, so
// they rank by realized PnL only. Once the market is resolved, prices are ignored and open shares are valued at
// the payout. Each group gives its share-weighted average entry, buy and sell prices.
import { HolderLinesAnswer } from '../schemas/answerSchemas.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import { sumPositions } from '../../engine/valuation/sumPositions.js';
import { indexedMarket } from '../indexedMarket.js';
import { conditionParam } from '../query/readQuery.js';
import { clampedParam, textParam } from '../query/queryParams.js';
import { PAGE_ROWS } from '../apiLimits.js';
import { readServedBlock } from '../readServedState.js';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { OPEN_THRESHOLD_MICROS, type Position } from '../../engine/reducers/position.js';
import { defaultMarks, legValue, type Price } from '../../engine/valuation/marketPrices.js';
import { priceNumber, tokenMarks } from '../rows/traderRow.js';
import { MICRO } from '../microUnits.js';
import { ERROR, ERROR_DOCS } from '../errorTexts.js';
import { defineRoute } from './route.js';

interface Member {
  wallet: string;
  position: Position;
  pnl: number;
}

const ratio = (numerator: number, denominator: number) => (denominator > 0 ? numerator / denominator : 0);

function group(members: Member[]) {
  let shares = 0;
  let basis = 0;
  let boughtUsd = 0;
  let boughtShares = 0;
  let soldUsd = 0;
  let soldShares = 0;
  let sellers = 0;
  for (const { position: p } of members) {
    if (p.shares > 0) {
      shares += p.shares;
      basis += p.costBasis;
    }
    boughtUsd += p.boughtUsd;
    boughtShares += p.boughtShares;
    soldUsd += p.soldUsd;
    soldShares += p.soldShares;
    if (p.soldShares > 0) sellers++;
  }
  return {
    wallets: members.length,
    shares: shares / MICRO,
    avgEntry: ratio(basis, shares),
    avgBuy: ratio(boughtUsd, boughtShares),
    avgSell: ratio(soldUsd, soldShares),
    sellers,
    members: members.map(({ wallet, position: p }) => ({
      wallet,
      shares: Math.max(p.shares, 0) / MICRO,
      avgEntry: p.shares > 0 ? p.costBasis / p.shares : 0,
      avgBuy: ratio(p.boughtUsd, p.boughtShares),
      avgSell: ratio(p.soldUsd, p.soldShares),
      realizedPnl: p.realizedPnl / MICRO,
    })),
  };
}

const byWallet = (a: Member, b: Member) => (a.wallet < b.wallet ? -1 : 1);

export const holderLinesRoute = defineRoute({
  pattern: '/v1/markets/:conditionId/holder-lines',
  operationId: 'getHolderLines',
  errors: ERROR_DOCS.notIndexed,
  tag: 'Markets',
  summary: 'Per outcome, the top holders (wallets that bought) and the top traders, with share-weighted averages',
  answer: HolderLinesAnswer,
  query: {
    top: clampedParam(
      `wallets per group, 1 to ${PAGE_ROWS.holderLines.max} (out of range is clamped), default ${PAGE_ROWS.holderLines.fallback}`,
      1,
      PAGE_ROWS.holderLines.max,
      PAGE_ROWS.holderLines.fallback,
    ),
    prices: textParam(
      'live prices by token id, `<tokenId>:<price>,...`, ignored once resolved; without one, open shares rank by realized PnL only',
    ),
  },
  open: (ctx) => ctx,
  handle: (ctx, request) => {
    const conditionId = conditionParam(request);
    const { market } = indexedMarket(ctx, conditionId);
    const { top } = request.query;
    const tokens = market.tokens ?? [];
    const resolved = market.payoutDenominator > 0 && market.payoutNumerators !== null;
    // Resolved: the payout; else the live prices given, and nothing for a token without one.
    // Checked even when they go unused: a malformed parameter is an error whatever the market's state.
    const live = tokenMarks(request.query.prices, tokens, [null, null], ERROR.badHolderPrices);
    const marks: Array<Price | null> = resolved ? defaultMarks(market) : live;
    const members: Member[][] = [[], []];
    for (const holder of ctx.state.marketHolders(conditionId)) {
      // A wallet holding an outcome on both ledgers (a migrated market) is one member of its line.
      holder.positions.forEach((held, i) => {
        const position = sumPositions(held, holder.migrated?.[i] ?? null);
        if (!position || i > 1) return;
        const mark = marks[i] ?? null;
        const open = mark ? legValue(position, mark) - position.costBasis : 0;
        members[i]!.push({ wallet: holder.wallet, position, pnl: position.realizedPnl + open });
      });
    }
    const outcomes = tokens.map((token, i) => {
      const all = members[i]!;
      const holders = all
        .filter((m) => m.position.shares >= OPEN_THRESHOLD_MICROS && m.position.boughtShares > 0)
        .sort((a, b) => b.position.shares - a.position.shares || byWallet(a, b))
        .slice(0, top);
      const traders = [...all].sort((a, b) => b.pnl - a.pnl || byWallet(a, b)).slice(0, top);
      const mark = marks[i] ?? null;
      return {
        outcomeIndex: i,
        tokenId: tokenIdToDecimal(token),
        mark: mark ? priceNumber(mark) : null,
        holders: group(holders),
        traders: group(traders),
      };
    });
    return { conditionId: publicConditionId(market), block: readServedBlock(ctx.state).block, resolved, top, outcomes };
  },
});
