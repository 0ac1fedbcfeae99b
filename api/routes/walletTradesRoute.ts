// GET /v1/wallets/{wallet}/trades (spec 4.2): the wallet's fills newest first, each with its market, by cursor
// ("ts,block,logIndex" of the last row, sent back as `before`); `market` keeps one market; `q` searches the
// question and outcome over the whole history in one answer.
import type { Static } from 'typebox';
import type { WalletTradesAnswer } from '../schemas/answerSchemas.js';
import { v2IdWord } from '../../engine/chain/v2ChainEvent.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import type { RouteRequest } from '../query/routeRequest.js';
import { requireTrades } from '../requireTrades.js';
import { clampedParam, textOf, walletParam } from '../query/readQuery.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';
import { parseTradeCursor, tradeCursor, tradeView } from '../rows/tradeView.js';

export function walletTradesRoute(ctx: RouteContext, request: RouteRequest): Static<typeof WalletTradesAnswer> {
  const wallet = walletParam(request);
  requireTrades(ctx);
  const query = request.query;
  const text = textOf(query, 'q');
  const search = text !== null;
  const limit = clampedParam(query, 'limit', 1, 500, search ? 300 : 100);
  // A search covers the whole history in one answer: market and cursor do not apply to it.
  const marketText = search ? null : (textOf(query, 'market')?.toLowerCase() ?? null);
  // A Protocol V2 condition may be named by its 62-hex id: the state keys it by its 32-byte word.
  const market = marketText !== null && /^0x[0-9a-f]{62}$/.test(marketText) ? v2IdWord(marketText) : marketText;
  const beforeText = search ? null : textOf(query, 'before');
  const before = beforeText === null ? null : parseTradeCursor(beforeText);

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
}
