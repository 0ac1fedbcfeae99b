// GET /activity (docs/venue-api.md, Activity): the Data API's shape of a wallet's history, its fills (TRADE) and its
// splits, merges, redemptions and conversions, with that API's filters and sorts. Newest first (the default) streams
// from the wallet's lists and pages by offset, not capped, or by the cursor each page names in X-Next-Cursor; another
// sort reads the wallet's whole history, on the heavy-work thread.
import Type, { type Static } from 'typebox';
import { MOVE_KIND, type MoveKind } from '../../engine/state/walletMove.js';
import { ApiError } from '../apiError.js';
import { ERROR_DOCS } from '../errorTexts.js';
import { MICRO } from '../microUnits.js';
import { clampedParam, integerParam, textParam } from '../query/queryParams.js';
import { readServedBlock } from '../readServedState.js';
import { requireTrades } from '../requireTrades.js';
import { parseTradeCursor, TRADE_CURSOR_PATTERN, tradeView } from '../rows/tradeView.js';
import type { RouteContext } from '../routeContext.js';
import { VenueActivity } from '../schemas/venueSchemas.js';
import { createEventIndex } from '../search/eventIndex.js';
import { namedMarkets } from '../venueApi/marketSources.js';
import { venueAnswer } from '../venueApi/venueAnswer.js';
import { cursorPage } from '../venueApi/cursorPage.js';
import { venueConditionId } from '../venueApi/venueConditionId.js';
import { venueMarketFields } from '../venueApi/venueMarketFields.js';
import { venueProfile } from '../venueApi/venueProfile.js';
import {
  EVENT_LIST_PARAM,
  MARKET_LIST_PARAM,
  marketFilter,
  OFFSET_PARAM,
  requiredUser,
  SIDE_PARAM,
  SORT_DIRECTION_PARAM,
  sortByParam,
  USER_PARAM,
} from '../venueApi/venueQuery.js';
import { type ActivityEntry, entryPosition, walletActivity } from '../venueApi/walletActivity.js';
import { defineRoute } from './route.js';

type Row = Static<typeof VenueActivity>;

/** The Data API's sorts, each the row field it orders by. */
const SORTS = { TIMESTAMP: 'timestamp', TOKENS: 'size', CASH: 'usdcSize' } as const satisfies Record<string, keyof Row>;

/** The Data API's types; tally folds no rewards (paid off-chain by the venue), so REWARD lists nothing. */
const TYPES = ['TRADE', 'SPLIT', 'MERGE', 'REDEEM', 'REWARD', 'CONVERSION'] as const;
const MOVE_TYPE: Record<MoveKind, Row['type']> = {
  [MOVE_KIND.split]: 'SPLIT',
  [MOVE_KIND.merge]: 'MERGE',
  [MOVE_KIND.redemption]: 'REDEEM',
  [MOVE_KIND.conversion]: 'CONVERSION',
};
/** The outcome index the Data API gives a row of no one outcome. */
const NO_OUTCOME = 999;

/** Only newest first reads a page alone; any other order sorts the wallet's whole history. */
const streamed = (query: { sortBy: keyof typeof SORTS; sortDirection: 'ASC' | 'DESC' }) =>
  query.sortBy === 'TIMESTAMP' && query.sortDirection === 'DESC';

export const venueActivityRoute = defineRoute({
  pattern: '/activity',
  operationId: 'getVenueActivity',
  tag: 'Data API shapes',
  summary: "The venue's Data API /activity: a wallet's trades, splits, merges, redemptions and conversions",
  errors: {
    503: `${ERROR_DOCS.tradesOff[503]}; or ${ERROR_DOCS.heavyBusy[503]}`,
  },
  query: {
    user: USER_PARAM,
    limit: clampedParam('rows, 0 to 500 (out of range is clamped), default 100', 0, 500, 100),
    offset: OFFSET_PARAM,
    cursor: textParam(
      "newest first only: a page's X-Next-Cursor (ts,block,logIndex), the rows after it; offset then counts from it",
      TRADE_CURSOR_PATTERN,
      'cursor must be a cursor ts,block,logIndex',
    ),
    market: MARKET_LIST_PARAM,
    eventId: EVENT_LIST_PARAM,
    type: textParam(
      `types, comma separated: ${TYPES.join(', ')}`,
      `^(${TYPES.join('|')})(,(${TYPES.join('|')}))*$`,
      `type must be types, comma separated: ${TYPES.join(', ')}`,
    ),
    start: integerParam('rows at or after this time, Unix seconds', { minimum: 0 }),
    end: integerParam('rows at or before this time, Unix seconds', { minimum: 0 }),
    sortBy: sortByParam(SORTS, 'TIMESTAMP'),
    sortDirection: SORT_DIRECTION_PARAM,
    side: SIDE_PARAM,
  },
  answer: Type.Array(VenueActivity),
  // Another order than newest first reads every fill and move of the wallet.
  heavy: (query) => !streamed(query),
  open: (ctx) => ({ ctx, events: createEventIndex(ctx.offchain) }),
  handle({ ctx, events }, request) {
    requireTrades(ctx);
    const { query } = request;
    const wallet = requiredUser(query.user);
    const markets = namedMarkets(ctx, events, marketFilter(query.market, query.eventId));
    const stream = streamed(query);
    if (query.cursor !== undefined && !stream)
      throw new ApiError(400, 'cursor pages newest first only (sortBy TIMESTAMP, sortDirection DESC)');
    const before = query.cursor === undefined ? null : parseTradeCursor(query.cursor);
    const types = query.type === undefined ? null : new Set(query.type.split(','));
    const start = query.start ?? 0;
    const end = query.end ?? Number.MAX_SAFE_INTEGER;
    const describe = describer(ctx, wallet);
    /** A conversion is in a market list naming its event's market id or its first NO leg's market. */
    const inMarkets = (row: Row, entry: ActivityEntry) =>
      markets === null ||
      markets.has(row.conditionId) ||
      (entry.move?.kind === MOVE_KIND.conversion && markets.has(conditionIdOf(ctx, entry.move.market)));
    const keep = (row: Row, entry: ActivityEntry) =>
      (types === null || types.has(row.type)) &&
      (query.side === undefined || row.side === query.side) &&
      row.timestamp >= start &&
      row.timestamp <= end &&
      inMarkets(row, entry);
    // One market named: the wallet's fill list of that market alone (the moves are few, filtered here).
    const market =
      markets !== null && markets.size === 1 ? (ctx.reads.market([...markets][0]!).market?.conditionId ?? null) : null;
    const block = readServedBlock(ctx.state).block;
    const entries = walletActivity(ctx, wallet, before, market);
    if (!stream) {
      const rows: Array<{ row: Row; at: number }> = [];
      for (const entry of entries) {
        const row = describe(entry);
        if (row !== null && keep(row, entry)) rows.push({ row, at: rows.length });
      }
      const by = SORTS[query.sortBy];
      const sign = query.sortDirection === 'ASC' ? 1 : -1;
      // Ties in chain order, oldest first when ascending: `at` counts newest first.
      rows.sort((a, b) => sign * (a.row[by] - b.row[by]) || sign * (b.at - a.at));
      return venueAnswer(
        rows.slice(query.offset, query.offset + query.limit).map(({ row }) => row),
        block,
      );
    }
    const row = (entry: ActivityEntry) => {
      const made = describe(entry);
      return made === null || !keep(made, entry) ? null : made;
    };
    const { offset, limit } = query;
    return cursorPage(sinceStart(entries, start), row, entryPosition, {
      path: '/activity',
      query,
      offset,
      limit,
      block,
    });
  },
});

/** Newest first: past `start`, every entry left is older still. */
function* sinceStart(entries: Iterable<ActivityEntry>, start: number): Generator<ActivityEntry> {
  for (const entry of entries) {
    if (entryPosition(entry).ts < start) return;
    yield entry;
  }
}

/** The condition id the Data API shapes show for a market the state keys by `key`. */
function conditionIdOf(ctx: RouteContext, key: string): string {
  const { market } = ctx.reads.market(key);
  return market === null ? key : venueConditionId(market);
}

/** An entry's row, its market and the wallet's profile read once; null for an entry of no known market. */
function describer(ctx: RouteContext, wallet: string) {
  const profile = venueProfile(ctx, wallet);
  return (entry: ActivityEntry): Row | null => {
    if (entry.fill !== null) {
      const { market, metadata } = ctx.reads.market(entry.fill.market);
      if (market === null) return null;
      const view = tradeView(entry.fill, null);
      return {
        proxyWallet: wallet,
        timestamp: view.ts,
        conditionId: venueConditionId(market),
        type: 'TRADE',
        size: view.size,
        usdcSize: view.usd,
        transactionHash: view.tx,
        price: view.price,
        asset: view.asset,
        side: view.side,
        ...venueMarketFields(metadata, view.outcomeIndex),
        ...profile,
      };
    }
    const { move } = entry;
    const { market, metadata } = ctx.reads.market(move.market);
    if (market === null) return null;
    // A conversion is of a neg-risk event: the row names the event's market id, with its first NO leg's fields.
    const conditionId =
      move.kind === MOVE_KIND.conversion
        ? (market.negRiskMarketId ?? venueConditionId(market))
        : venueConditionId(market);
    return {
      proxyWallet: wallet,
      timestamp: move.ts,
      conditionId,
      type: MOVE_TYPE[move.kind],
      size: move.size / MICRO,
      usdcSize: move.usdc / MICRO,
      transactionHash: move.tx,
      price: 0,
      asset: '',
      side: '',
      ...venueMarketFields(metadata, NO_OUTCOME),
      ...profile,
    };
  };
}
