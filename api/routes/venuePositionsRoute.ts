// GET /positions (docs/venue-api.md, Positions): the Data API's shape of a wallet's held positions, from the same
// positions /v1/wallets/{wallet}/positions?status=open reads, with its parameters and defaults; the offset is not
// capped.
import Type from 'typebox';
import { clampedParam } from '../query/queryParams.js';
import { readServedBlock } from '../readServedState.js';
import { readVenuePositions } from '../venueApi/readVenuePositions.js';
import { VenuePosition } from '../schemas/venueSchemas.js';
import { venueAnswer } from '../venueApi/venueAnswer.js';
import { venuePositionRow, type VenuePositionRow } from '../venueApi/venuePositionRow.js';
import {
  amountParam,
  booleanParam,
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
import { sortRows } from '../venueApi/sortRows.js';
import { createEventIndex } from '../search/eventIndex.js';
import { namedMarkets } from '../venueApi/marketSources.js';
import { defineRoute } from './route.js';

/** The Data API's sorts, each the row field it orders by. */
const SORTS = {
  CURRENT: 'currentValue',
  INITIAL: 'initialValue',
  TOKENS: 'size',
  CASHPNL: 'cashPnl',
  PERCENTPNL: 'percentPnl',
  TITLE: 'title',
  RESOLVING: 'endDate',
  PRICE: 'curPrice',
  AVGPRICE: 'avgPrice',
} as const satisfies Record<string, keyof VenuePositionRow>;

export const venuePositionsRoute = defineRoute({
  pattern: '/positions',
  operationId: 'getVenuePositions',
  tag: 'Data API shapes',
  summary: "The venue's Data API /positions: a wallet's held positions, in that API's shape and parameters",
  query: {
    user: USER_PARAM,
    market: MARKET_LIST_PARAM,
    eventId: EVENT_LIST_PARAM,
    sizeThreshold: amountParam('shares a position holds at least, default 1'),
    redeemable: booleanParam('`true`: only positions redeemable now', 'false'),
    mergeable: booleanParam('`true`: only positions whose market the wallet holds both outcomes of', 'false'),
    limit: clampedParam('rows, 0 to 500 (out of range is clamped), default 100', 0, 500, 100),
    offset: OFFSET_PARAM,
    sortBy: sortByParam(SORTS, 'TOKENS'),
    sortDirection: SORT_DIRECTION_PARAM,
    title: TITLE_PARAM,
  },
  answer: Type.Array(VenuePosition),
  open: (ctx) => ({ ctx, events: createEventIndex(ctx.offchain) }),
  handle({ ctx, events }, request) {
    const { query } = request;
    const wallet = requiredUser(query.user);
    const markets = namedMarkets(ctx, events, marketFilter(query.market, query.eventId));
    const threshold = Math.round(Number(query.sizeThreshold ?? '1') * 1_000_000);
    const title = query.title?.toLowerCase() ?? null;
    const block = readServedBlock(ctx.state).block;
    const positions = readVenuePositions(ctx, wallet, true);
    const shares = new Map(positions.map((p) => [p.token, p.position.shares]));
    const held = (token: string) => shares.get(token) ?? 0;
    const rows: VenuePositionRow[] = [];
    for (const p of positions) {
      // A token no known market explains has no condition to show.
      if (p.market === null || p.outcomeIndex < 0) continue;
      if (p.position.shares <= 0 || p.position.shares < threshold) continue;
      if (title !== null && !(p.metadata?.question ?? '').toLowerCase().includes(title)) continue;
      const row = venuePositionRow(wallet, p, held);
      if (markets !== null && !markets.has(row.conditionId)) continue;
      if ((query.redeemable === 'true' && !row.redeemable) || (query.mergeable === 'true' && !row.mergeable)) continue;
      rows.push(row);
    }
    sortRows(rows, SORTS[query.sortBy], query.sortDirection, 'asset');
    return venueAnswer(rows.slice(query.offset, query.offset + query.limit), block);
  },
});
