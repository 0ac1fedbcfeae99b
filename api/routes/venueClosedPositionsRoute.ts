// GET /closed-positions (docs/venue-api.md, Closed positions): the Data API's shape of a wallet's exited positions,
// the ones /v1/wallets/{wallet}/closed-positions lists, with that API's parameters and defaults; offset not capped.
import Type, { type Static } from 'typebox';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { outcomeMark } from '../../engine/valuation/marketPrices.js';
import { MICRO } from '../microUnits.js';
import { clampedParam } from '../query/queryParams.js';
import { readServedBlock } from '../readServedState.js';
import { walletRowOf } from '../rows/readWalletPositions.js';
import { readVenuePositions } from '../venueApi/readVenuePositions.js';
import { VenueClosedPosition } from '../schemas/venueSchemas.js';
import { createEventIndex } from '../search/eventIndex.js';
import { namedMarkets } from '../venueApi/marketSources.js';
import { sortRows } from '../venueApi/sortRows.js';
import { venueAnswer } from '../venueApi/venueAnswer.js';
import { venueConditionId } from '../venueApi/venueConditionId.js';
import { venueMarketFields } from '../venueApi/venueMarketFields.js';
import {
  EVENT_LIST_PARAM,
  MARKET_LIST_PARAM,
  marketFilter,
  requiredUser,
  OFFSET_PARAM,
  SORT_DIRECTION_PARAM,
  sortByParam,
  TITLE_PARAM,
  USER_PARAM,
} from '../venueApi/venueQuery.js';
import { defineRoute } from './route.js';

type Row = Static<typeof VenueClosedPosition>;

const SORTS = {
  REALIZEDPNL: 'realizedPnl',
  TITLE: 'title',
  PRICE: 'curPrice',
  AVGPRICE: 'avgPrice',
  TIMESTAMP: 'timestamp',
} as const satisfies Record<string, keyof Row>;

export const venueClosedPositionsRoute = defineRoute({
  pattern: '/closed-positions',
  operationId: 'getVenueClosedPositions',
  tag: 'Data API shapes',
  summary: "The venue's Data API /closed-positions: a wallet's exited positions, in that API's shape and parameters",
  query: {
    user: USER_PARAM,
    market: MARKET_LIST_PARAM,
    eventId: EVENT_LIST_PARAM,
    title: TITLE_PARAM,
    limit: clampedParam('rows, 0 to 50 (out of range is clamped), default 10', 0, 50, 10),
    offset: OFFSET_PARAM,
    sortBy: sortByParam(SORTS, 'REALIZEDPNL'),
    sortDirection: SORT_DIRECTION_PARAM,
  },
  answer: Type.Array(VenueClosedPosition),
  open: (ctx) => ({ ctx, events: createEventIndex(ctx.offchain) }),
  handle({ ctx, events }, request) {
    const { query } = request;
    const wallet = requiredUser(query.user);
    const markets = namedMarkets(ctx, events, marketFilter(query.market, query.eventId));
    const title = query.title?.toLowerCase() ?? null;
    const block = readServedBlock(ctx.state).block;
    const positions = readVenuePositions(ctx, wallet);
    const rows: Row[] = [];
    for (const p of positions) {
      const { market, metadata, outcomeIndex } = p;
      if (market === null || outcomeIndex < 0 || p.micros.exitAt === null) continue;
      if (markets !== null && !markets.has(venueConditionId(market))) continue;
      if (title !== null && !(metadata?.question ?? '').toLowerCase().includes(title)) continue;
      const row = walletRowOf(ctx, wallet, p);
      const mark = outcomeMark(market, outcomeIndex);
      const opposite = market.tokens?.[1 - outcomeIndex] ?? null;
      rows.push({
        proxyWallet: wallet,
        asset: row.tokenId,
        conditionId: venueConditionId(market),
        avgPrice: row.entryPrice,
        totalBought: row.sharesIn,
        realizedPnl: p.micros.settledPnl / MICRO,
        curPrice: mark === null ? 0 : mark.price[0] / mark.price[1],
        timestamp: p.micros.exitAt,
        ...venueMarketFields(metadata, outcomeIndex),
        oppositeOutcome: metadata?.outcomes?.[1 - outcomeIndex] ?? '',
        oppositeAsset: opposite === null ? '' : tokenIdToDecimal(opposite),
        endDate: metadata?.endDate ?? '',
      });
    }
    sortRows(rows, SORTS[query.sortBy], query.sortDirection, 'asset');
    return venueAnswer(rows.slice(query.offset, query.offset + query.limit), block);
  },
});
