// GET /v1/fills (spec 4.9, docs/design.md 5): every fill of 1 to 100 markets in a window of at most 7 days, oldest
// first, as rows of 11 integers; `limit` 1-50,000 (10,000), `cursor` the previous page's `next`. Parameters are
// strict: a malformed one is refused, never clamped. A page is answered by the serving thread's heavy-work thread
// (api/heavy), so that reading tens of thousands of fills never holds up another key's cheap request: the markets'
// fills are read in chain order (StateReader.marketsFillCursor) and written straight into bytes (jsonBytes.ts), up to
// the block the answer names, even if the fold commits more meanwhile. A page of 50,000 rows is about 3 MB.
import { v2IdWord } from '../../engine/chain/v2ChainEvent.js';
import { ApiError } from '../apiError.js';
import { requireTrades } from '../requireTrades.js';
import type { Static } from 'typebox';
import { FillsFeedAnswer } from '../schemas/answerSchemas.js';
import { ERROR } from '../errorTexts.js';
import { CONDITION_LIST_PATTERN } from '../query/readQuery.js';
import { textParam } from '../query/queryParams.js';
import { readServedBlock } from '../readServedState.js';
import { COMMA, JsonBytes } from '../transport/jsonBytes.js';
import { JsonBody } from '../transport/jsonBody.js';
import type { FillPosition } from '../../engine/state/storedFill.js';
import { parseTradeCursor, TRADE_CURSOR_PATTERN, tradeCursor } from '../rows/tradeView.js';
import { ROLE } from '../../engine/state/tradeRow.js';
import { ERROR_DOCS } from '../errorTexts.js';
import { defineRoute } from './route.js';
import { DEFAULT_FEED_LIMIT, MAX_FEED_LIMIT, MAX_FEED_MARKETS, MAX_FEED_WINDOW } from '../apiLimits.js';

/** The bytes a row takes at most, about: the page's buffer starts at the limit's rows (it grows if need be). */
const ROW_BYTES = 64;
export const FEED_ERRORS = {
  markets: `markets must be 1 to ${MAX_FEED_MARKETS} condition ids (0x plus 64 hex), comma separated, no spaces, no repeats`,
  order: ERROR.badWindow,
  limit: `limit must be an integer from 1 to ${MAX_FEED_LIMIT}`,
} as const;

function strictInteger(
  text: string | undefined,
  name: string,
  min: number,
  max: number,
  error = `${name} must be an integer from ${min} to ${max}`,
): number {
  if (text === undefined || !/^\d{1,15}$/.test(text)) throw new ApiError(400, error);
  const value = Number(text);
  if (value < min || value > max) throw new ApiError(400, error);
  return value;
}

const CURSOR_ERROR = "cursor must be the previous page's next: ts,block,logIndex";

export const fillsFeedRoute = defineRoute({
  pattern: '/v1/fills',
  operationId: 'getFillsFeed',
  errors: {
    503: `${ERROR_DOCS.tradesOff[503]}; or ${ERROR_DOCS.heavyBusy[503]}`,
  },
  tag: 'Markets',
  summary:
    'Every fill of 1 to 100 markets in a window of at most 7 days, oldest first, as rows of 11 integers (gzipped when gzip is accepted)',
  answer: FillsFeedAnswer,
  query: {
    markets: textParam(
      '1 to 100 condition ids, comma separated, no spaces, no repeats',
      CONDITION_LIST_PATTERN,
      FEED_ERRORS.markets,
    ),
    from: textParam('Unix seconds, inclusive', '^\\d{1,15}$', 'from must be Unix seconds'),
    to: textParam('Unix seconds, exclusive; at most 604,800 after from', '^\\d{1,15}$', 'to must be Unix seconds'),
    limit: textParam('rows, 1 to 50,000 (refused outside), default 10,000', '^\\d{1,15}$', FEED_ERRORS.limit),
    cursor: textParam("the previous page's `next`: ts,block,logIndex", TRADE_CURSOR_PATTERN, CURSOR_ERROR),
  },
  stream: true,
  gzipOnly: true,
  cached: false,
  // Every page reads up to 50,000 fills: on the heavy-work thread, never ahead of another key's cheap request.
  heavy: () => true,
  open: (ctx) => ctx,
  handle: (ctx, request): JsonBody<Static<typeof FillsFeedAnswer>> => {
    requireTrades(ctx);
    const query = request.query;
    const marketsText = query.markets ?? '';
    const markets = marketsText.split(',');
    if (
      !/^0x(?:[0-9a-fA-F]{62}|[0-9a-fA-F]{64})(?:,0x(?:[0-9a-fA-F]{62}|[0-9a-fA-F]{64}))*$/.test(marketsText) ||
      markets.length > MAX_FEED_MARKETS
    ) {
      throw new ApiError(400, FEED_ERRORS.markets);
    }
    // A Protocol V2 condition may be named by its 62-hex id (the state keys it by its 32-byte word).
    const lowered = markets.map((market) => (market.length === 64 ? v2IdWord(market) : market).toLowerCase());
    if (new Set(lowered).size !== lowered.length) throw new ApiError(400, FEED_ERRORS.markets);
    // Combo fills are not included (spec 4.9): a combo listed keeps its place in the list and gives no rows. A
    // migrated market's fills on both ledgers come under its place (docs/design.md 10), by either id; named twice, it
    // repeats.
    const scanned = lowered.map((market) => (ctx.reads.market(market).market?.v2?.legs ? '' : market));
    const places = scanned.map((_, i) => i);
    const named = new Set<string>();
    for (let i = 0, listed = scanned.length; i < listed; i++) {
      if (scanned[i] === '') continue;
      const ledgers = ctx.state.marketLedgers(scanned[i]!);
      for (const id of ledgers) if (named.has(id)) throw new ApiError(400, FEED_ERRORS.markets);
      for (const id of ledgers) named.add(id);
      for (const id of ledgers) {
        if (id === scanned[i]) continue;
        scanned.push(id);
        places.push(i);
      }
    }
    const from = strictInteger(query.from, 'from', 0, Number.MAX_SAFE_INTEGER, 'from must be Unix seconds');
    const to = strictInteger(query.to, 'to', 0, Number.MAX_SAFE_INTEGER, 'to must be Unix seconds');
    if (to <= from) throw new ApiError(400, FEED_ERRORS.order);
    if (to - from > MAX_FEED_WINDOW) throw new ApiError(400, ERROR.fillsWindow);
    const limit =
      query.limit === undefined
        ? DEFAULT_FEED_LIMIT
        : strictInteger(query.limit, 'limit', 1, MAX_FEED_LIMIT, FEED_ERRORS.limit);
    const cursor = query.cursor === undefined ? null : parseTradeCursor(query.cursor);
    if (query.cursor !== undefined && cursor === null) throw new ApiError(400, CURSOR_ERROR);

    const served = readServedBlock(ctx.state);
    const state = ctx.state;
    // The window in blocks: from the first block at or after `from`, before the first at or after `to`, and never
    // past the served block.
    const firstBlock = state.firstBlockFrom(from);
    const endOfWindow = state.firstBlockFrom(to);
    const endBlock = Math.min(endOfWindow ?? Infinity, served.block + 1);
    let start: FillPosition | null = firstBlock === null ? null : { block: firstBlock, logIndex: 0 };
    if (
      start !== null &&
      cursor !== null &&
      (cursor.block > start.block || (cursor.block === start.block && cursor.logIndex >= start.logIndex))
    ) {
      start = { block: cursor.block, logIndex: cursor.logIndex + 1 };
    }
    const scan =
      start !== null && start.block < endBlock
        ? state.marketsFillCursor(scanned, { from: start, endBlock: Number.isFinite(endBlock) ? endBlock : null })
        : null;
    // One fill ahead: whether fills remain past the limit is known when the page ends.
    let more = scan?.next() ?? false;

    let rows = 0;
    // The last row's place, kept as numbers: an object a row would be garbage a row.
    const lastRow = { ts: 0, block: 0, logIndex: 0 };
    const out = new JsonBytes(Math.min(limit, MAX_FEED_LIMIT) * ROW_BYTES + 256);
    /** A row's 11 integers (spec 4.9, by position), reused row after row. */
    const row = new Float64Array(11);
    out.text(`{"block":${served.block},"fills":[`);
    for (; rows < limit && more; rows++) {
      const { block, fill } = scan!;
      lastRow.ts = fill.ts;
      lastRow.block = block;
      lastRow.logIndex = fill.logIndex;
      if (rows > 0) out.char(COMMA);
      row[0] = places[scan!.list]!;
      row[1] = fill.ts;
      row[2] = block;
      row[3] = fill.logIndex;
      row[4] = fill.outcomeIndex;
      row[5] = fill.side;
      row[6] = fill.shares;
      row[7] = fill.usd;
      row[8] = fill.exchange;
      row[9] = fill.role === ROLE.taker ? 1 : 0;
      row[10] = fill.fee;
      out.array(row);
      more = scan!.next();
    }
    // Cut by the limit when fills remain: the next page starts after the last row, and the window is complete only
    // before that row's second. Otherwise complete through the window's end, or the served block's time.
    const completeThroughTs = more ? lastRow.ts : Math.min(to, Math.max(from, served.blockTs));
    out.text(
      `],"completeThroughTs":${completeThroughTs},"next":${more ? JSON.stringify(tradeCursor(lastRow)) : 'null'}}`,
    );
    return new JsonBody(out.take());
  },
});
