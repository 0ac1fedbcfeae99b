// GET /v1/wallets/{wallet}/trades (spec 4.2): the wallet's fills newest first, each with its market, by cursor
// ("ts,block,logIndex" of the last row, sent back as `before`); `market` keeps one market; `q` searches the
// question and outcome over the whole history in one answer.
import type { Static } from 'typebox';
import { WalletTradesAnswer } from '../schemas/answerSchemas.js';
import { v2IdWord } from '../../engine/chain/v2ChainEvent.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import { requireTrades } from '../requireTrades.js';
import { CONDITION_ID, walletParam } from '../query/readQuery.js';
import { clampedParam, textParam } from '../query/queryParams.js';
import { PAGE_ROWS } from '../apiLimits.js';
import { readServedBlock } from '../readServedState.js';
import { parseTradeCursor, TRADE_CURSOR_PATTERN, tradeCursor, tradeView } from '../rows/tradeView.js';
import { ERROR_DOCS } from '../errorTexts.js';
import { defineRoute } from './route.js';

export const walletTradesRoute = defineRoute({
  pattern: '/v1/wallets/:wallet/trades',
  operationId: 'getWalletTrades',
  errors: ERROR_DOCS.tradesOff,
  tag: 'Wallets',
  summary: "A wallet's trades, newest first",
  answer: WalletTradesAnswer,
  query: {
    limit: clampedParam(
      `rows, 1 to ${PAGE_ROWS.walletTrades.max} (out of range is clamped), default ${PAGE_ROWS.walletTrades.fallback}, ${PAGE_ROWS.walletTrades.searchFallback} on a search`,
      1,
      PAGE_ROWS.walletTrades.max,
    ),
    // A search covers the whole history in one answer: it ignores the cursor and the market (spec 4.2).
    before: {
      ...textParam(
        "the previous page's `next`: ts,block,logIndex; ignored with q",
        TRADE_CURSOR_PATTERN,
        'before must be a cursor ts,block,logIndex',
      ),
      ignoredWith: 'q',
    },
    market: {
      ...textParam(
        "one market's trades (condition id); ignored with q",
        `^${CONDITION_ID}$`,
        'market must be a condition id',
      ),
      ignoredWith: 'q',
    },
    q: textParam('search over the whole history: market question or outcome; one answer, no cursor'),
  },
  open: (ctx) => ctx,
  handle: (ctx, request) => {
    const wallet = walletParam(request);
    requireTrades(ctx);
    const query = request.query;
    const text = query.q ?? null;
    const search = text !== null;
    const limit = query.limit ?? (search ? PAGE_ROWS.walletTrades.searchFallback : PAGE_ROWS.walletTrades.fallback);
    // A search covers the whole history in one answer: market and cursor do not apply to it.
    const marketText = search ? null : (query.market?.toLowerCase() ?? null);
    // A Protocol V2 condition may be named by its 62-hex id: the state keys it by its 32-byte word.
    const market = marketText !== null && /^0x[0-9a-f]{62}$/.test(marketText) ? v2IdWord(marketText) : marketText;
    const beforeText = search ? undefined : query.before;
    const before = beforeText === undefined ? null : parseTradeCursor(beforeText);

    const needle = search ? text!.toLowerCase() : '';
    const trades: Static<typeof WalletTradesAnswer>['trades'] = [];
    let more = false;
    for (const fill of ctx.state.walletFills(wallet, { before, market })) {
      const entry = ctx.reads.market(fill.market);
      const meta = entry.metadata;
      const outcome = meta?.outcomes?.[fill.row.outcomeIndex] ?? '';
      if (search && !((meta?.question ?? '').toLowerCase().includes(needle) || outcome.toLowerCase().includes(needle)))
        continue;
      if (trades.length === limit) {
        more = true;
        break;
      }
      const conditionId = entry.market ? publicConditionId(entry.market) : null;
      trades.push(Object.assign(tradeView(fill, conditionId), { market: Object.assign({}, entry.view, { outcome }) }));
    }
    const last = trades.at(-1);
    const answer: Static<typeof WalletTradesAnswer> = {
      wallet,
      block: readServedBlock(ctx.state).block,
      complete: true,
      truncated: false,
      trades,
      next: !search && more && last ? tradeCursor(last) : null,
    };
    if (market) answer.market = market;
    if (search) Object.assign(answer, { query: text, returned: trades.length, moreMatched: more, limit });
    return answer;
  },
});
