// GET /v1/wallets/{wallet}/trades (spec 4.2): the wallet's fills newest first, each with its market, by cursor
// ("ts,block,logIndex" of the last row, sent back as `before`); `market` keeps one market; `q` searches the
// question and outcome over the whole history in one answer.
import { decodeValue } from '../../engine/state/stateCodec.js';
import { marketTradesKey, walletTradesKey } from '../../engine/state/stateKeys.js';
import { decodeTradeRow, type TradeChunk } from '../../engine/state/tradeRow.js';
import type { RouteRequest } from '../createServer.js';
import { clampedParam, textOf, walletParam } from '../query/readQuery.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';
import { parseTradeCursor, tradeCursor, tradeView } from '../rows/tradeView.js';

export function walletTradesRoute(ctx: RouteContext, request: RouteRequest): unknown {
  const wallet = walletParam(request);
  const query = request.query;
  const text = textOf(query, 'q');
  const search = text !== null;
  const limit = clampedParam(query, 'limit', 1, 500, search ? 300 : 100);
  // A search covers the whole history in one answer: market and cursor do not apply to it.
  const market = search ? null : textOf(query, 'market')?.toLowerCase() ?? null;
  const beforeText = search ? null : textOf(query, 'before');
  const before = beforeText === null ? null : parseTradeCursor(beforeText);

  const needle = search ? text!.toLowerCase() : '';
  const trades: unknown[] = [];
  let more = false;
  const start = walletTradesKey(wallet, before ? before.block : 9_999_999_999);
  scan: for (const { key, value } of ctx.store.dbs.walletTrades.getRange({ start, end: wallet + ':', reverse: true })) {
    const block = Number(String(key).slice(43));
    const refs = decodeValue<Array<string | number>>(value);
    const entries: Array<[string, number]> = [];
    for (let i = 0; i < refs.length; i += 2) entries.push([refs[i] as string, refs[i + 1] as number]);
    entries.sort((a, b) => b[1] - a[1]);
    const chunks = new Map<string, TradeChunk>();
    for (const [id, logIndex] of entries) {
      if (before && block === before.block && logIndex >= before.logIndex) continue;
      if (market && id !== market) continue;
      let chunk = chunks.get(id);
      if (!chunk) {
        const bytes = ctx.store.dbs.marketTrades.getBinary(marketTradesKey(id, block));
        if (!bytes) continue;
        chunks.set(id, (chunk = decodeValue<TradeChunk>(bytes)));
      }
      const rowValues = (chunk.slice(1) as Array<Array<string | number>>).find((r) => r[0] === logIndex);
      if (!rowValues) continue;
      const row = decodeTradeRow(rowValues);
      const entry = ctx.reads.market(id);
      const meta = entry.metadata;
      const outcome = meta?.outcomes?.[row.outcomeIndex] ?? '';
      if (search && !((meta?.question ?? '').toLowerCase().includes(needle) || outcome.toLowerCase().includes(needle))) continue;
      if (trades.length === limit) {
        more = true;
        break scan;
      }
      const conditionId = id.startsWith('0x') ? id : null;
      trades.push(Object.assign(tradeView(row, chunk[0], block, conditionId), {
        market: Object.assign({}, entry.view, { outcome }),
      }));
    }
  }
  const last = trades.at(-1) as { ts: number; block: number; logIndex: number } | undefined;
  const answer: Record<string, unknown> = {
    wallet, block: readServedBlock(ctx.store).block, complete: true, truncated: false, trades,
    next: !search && more && last ? tradeCursor(last) : null,
  };
  if (market) answer.market = market;
  if (search) Object.assign(answer, { query: text, returned: trades.length, moreMatched: more, limit });
  return answer;
}
