// GET /trades (docs/venue-api.md, Trades): the Data API's shape of fills, newest first, of a market list, an event,
// a wallet (or a wallet in some markets) or the whole venue, with its filters; paged by offset as that API pages (not
// capped), or by the cursor every page names in X-Next-Cursor, which resumes in constant time however deep.
import Type, { type Static } from 'typebox';
import { newestFirst } from '../../engine/state/newestFirst.js';
import type { FillPosition, StoredFill } from '../../engine/state/storedFill.js';
import { ROLE, SIDE } from '../../engine/state/tradeRow.js';
import { ApiError } from '../apiError.js';
import { ERROR_DOCS } from '../errorTexts.js';
import { MICRO } from '../microUnits.js';
import { choiceParam, clampedParam, integerParam, textParam } from '../query/queryParams.js';
import { readServedBlock } from '../readServedState.js';
import { requireTrades } from '../requireTrades.js';
import { parseTradeCursor, TRADE_CURSOR_PATTERN, tradeView } from '../rows/tradeView.js';
import { VenueTrade } from '../schemas/venueSchemas.js';
import { createEventIndex } from '../search/eventIndex.js';
import { cursorPage } from '../venueApi/cursorPage.js';
import { venueConditionId } from '../venueApi/venueConditionId.js';
import { venueMarketFields } from '../venueApi/venueMarketFields.js';
import { namedMarkets } from '../venueApi/marketSources.js';
import { venueProfile } from '../venueApi/venueProfile.js';
import {
  amountParam,
  booleanParam,
  EVENT_LIST_PARAM,
  MARKET_LIST_PARAM,
  marketFilter,
  SIDE_PARAM,
  USER_PARAM,
} from '../venueApi/venueQuery.js';
import type { RouteContext } from '../routeContext.js';
import { defineRoute } from './route.js';

type Row = Static<typeof VenueTrade>;

export const venueTradesRoute = defineRoute({
  pattern: '/trades',
  operationId: 'getVenueTrades',
  tag: 'Data API shapes',
  summary: "The venue's Data API /trades: fills newest first, of markets, an event or a wallet, in that API's shape",
  errors: {
    503: `${ERROR_DOCS.tradesOff[503]}; or ${ERROR_DOCS.heavyBusy[503]}`,
  },
  query: {
    limit: clampedParam('rows, 0 to 10000 (out of range is clamped), default 100', 0, 10_000, 100),
    offset: integerParam('rows to skip (not capped; the cursor resumes a deep page faster)', {
      minimum: 0,
      default: 0,
    }),
    cursor: textParam(
      "a page's X-Next-Cursor (ts,block,logIndex): the rows after it, with the same filters; offset then counts from it",
      TRADE_CURSOR_PATTERN,
      'cursor must be a cursor ts,block,logIndex',
    ),
    takerOnly: booleanParam('`true` (default): only the taker side of each match', 'true'),
    filterType: choiceParam('`CASH` or `TOKENS`: with filterAmount, rows of at least that much', ['CASH', 'TOKENS']),
    filterAmount: amountParam('USD (CASH) or shares (TOKENS) a row holds at least'),
    market: MARKET_LIST_PARAM,
    eventId: EVENT_LIST_PARAM,
    user: USER_PARAM,
    side: SIDE_PARAM,
  },
  answer: Type.Array(VenueTrade),
  // A size threshold may keep few of the fills it reads (any of the venue's): the heavy-work thread reads them.
  heavy: (query) => query.filterAmount !== undefined,
  open: (ctx) => ({ ctx, events: createEventIndex(ctx.offchain) }),
  handle({ ctx, events }, request) {
    requireTrades(ctx);
    const { query } = request;
    if ((query.filterType === undefined) !== (query.filterAmount === undefined)) {
      throw new ApiError(400, 'give filterType and filterAmount together');
    }
    const markets = namedMarkets(ctx, events, marketFilter(query.market, query.eventId));
    const user = query.user?.toLowerCase() ?? null;
    const before = query.cursor === undefined ? null : parseTradeCursor(query.cursor);
    const least = query.filterAmount === undefined ? 0 : Math.round(Number(query.filterAmount) * MICRO);
    const side = query.side === undefined ? null : query.side === 'BUY' ? SIDE.buy : SIDE.sell;
    const keep = (fill: StoredFill) =>
      (query.takerOnly === 'false' || fill.row.role === ROLE.taker) &&
      (side === null || fill.row.side === side) &&
      (query.filterType === 'TOKENS' ? fill.row.shares : fill.row.usd) >= least &&
      (user === null || fill.row.wallet === user);
    const describe = describer(ctx);
    const row = (fill: StoredFill) => {
      if (!keep(fill)) return null;
      const made = describe(fill);
      return made === null || (markets !== null && !markets.has(made.conditionId)) ? null : made;
    };
    const position = (fill: StoredFill) => ({ ts: fill.ts, block: fill.block, logIndex: fill.row.logIndex });
    const { offset, limit } = query;
    const block = readServedBlock(ctx.state).block;
    return cursorPage(fillsOf(ctx, markets, user, before), row, position, {
      path: '/trades',
      query,
      offset,
      limit,
      block,
    });
  },
});

/**
 * The fills to look through, newest first: the wallet's (all its markets, or one), the markets' merged, or with
 * neither the venue's.
 */
function fillsOf(
  ctx: RouteContext,
  markets: Set<string> | null,
  user: string | null,
  before: FillPosition | null,
): Iterable<StoredFill> {
  if (user !== null) {
    const market = markets !== null && markets.size === 1 ? ctx.reads.market([...markets][0]!).market : null;
    return ctx.state.walletFills(user, { before, market: market?.conditionId ?? null });
  }
  if (markets === null) return ctx.state.venueFills(before);
  const lists: Iterable<StoredFill>[] = [];
  for (const id of markets) {
    const market = ctx.reads.market(id).market;
    if (market) lists.push(ctx.state.marketFills(market.conditionId, { before }));
  }
  return lists.reduce((merged, list) => newestFirst(merged, list), [] as Iterable<StoredFill>);
}

/** A fill's row, its market and profile fields read once per market and wallet; null for a fill of no market. */
function describer(ctx: RouteContext) {
  const profiles = new Map<string, ReturnType<typeof venueProfile>>();
  return (fill: StoredFill): Row | null => {
    const { market, metadata } = ctx.reads.market(fill.market);
    if (market === null) return null;
    const view = tradeView(fill, null);
    let profile = profiles.get(view.wallet);
    if (profile === undefined) profiles.set(view.wallet, (profile = venueProfile(ctx, view.wallet)));
    return {
      proxyWallet: view.wallet,
      side: view.side,
      asset: view.asset,
      conditionId: venueConditionId(market),
      size: view.size,
      price: view.price,
      timestamp: view.ts,
      ...venueMarketFields(metadata, view.outcomeIndex),
      ...profile,
      transactionHash: view.tx,
    };
  };
}
