// GET /v1/events/heat (spec 4.12, docs/design.md 5 and 6): per event slug, the distinct wallets (makers and takers:
// every fill row is one order's owner) that traded any of its markets in the window, busiest first; `window` 1h,
// 6h or 24h (24h), `limit` 1-500 (50), clamped. Measured once a minute of block time: the window ends at the
// served block's time rounded down to the minute, and each minute's count is made once per window, by one scan
// of the fills table over the window, then kept until the minute moves or the market metadata changes.
// `complete`: the log reaches back to the window's start.
import { EventHeatAnswer } from '../schemas/answerSchemas.js';
import { requireTrades } from '../requireTrades.js';
import { choiceParam, rowsParam } from '../query/queryParams.js';
import { PAGE_ROWS } from '../apiLimits.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import { ERROR_DOCS } from '../errorTexts.js';
import { defineRoute } from './route.js';

const HEAT_WINDOWS = { '1h': 3_600, '6h': 21_600, '24h': 86_400 } as const;

/** The minute heat is measured at: the served block's time, rounded down to the minute. */
export function heatMinute(blockTs: number): number {
  return Math.floor(blockTs / 60) * 60;
}

interface HeatCount {
  since: number;
  complete: boolean;
  events: Array<{ eventSlug: string; uniqueTraders: number }>;
}

/** Distinct wallets per event slug over fills at or after `since`, before block `endBlock`, busiest first. */
export function countEventTraders(ctx: RouteContext, since: number, endBlock: number): HeatCount['events'] {
  const wallets = new Map<string, Set<number>>();
  const slugOfMarket = new Map<number, string | null>();
  const fromBlock = ctx.state.firstBlockFrom(since);
  if (fromBlock !== null) {
    for (const { block, fill } of ctx.state.fillsFrom(fromBlock)) {
      if (block >= endBlock) break;
      if (fill.marketSpace !== ID_SPACE.condition) continue;
      let slug = slugOfMarket.get(fill.marketId);
      if (slug === undefined) {
        slug = ctx.reads.market(ctx.state.idText(ID_SPACE.condition, fill.marketId)).metadata?.eventSlug ?? null;
        slugOfMarket.set(fill.marketId, slug);
      }
      if (slug === null) continue;
      let traders = wallets.get(slug);
      if (!traders) wallets.set(slug, (traders = new Set()));
      traders.add(fill.walletId);
    }
  }
  return [...wallets]
    .map(([eventSlug, traders]) => ({ eventSlug, uniqueTraders: traders.size }))
    .sort((a, b) => b.uniqueTraders - a.uniqueTraders || (a.eventSlug < b.eventSlug ? -1 : 1));
}

/** The heat route with its per-minute counts. */
export const eventHeatRoute = defineRoute({
  pattern: '/v1/events/heat',
  operationId: 'getEventHeat',
  errors: ERROR_DOCS.tradesOff,
  tag: 'Markets',
  summary: 'Distinct wallets per event over the window, busiest first, measured once a minute',
  answer: EventHeatAnswer,
  query: {
    window: choiceParam('`1h`, `6h` or `24h` (default)', ['1h', '6h', '24h'], '24h'),
    limit: rowsParam(PAGE_ROWS.eventHeat),
  },
  open: (ctx) => ({ ctx, counts: new Map<string, HeatCount>() }),
  handle({ ctx, counts }, request) {
    requireTrades(ctx);
    const { window, limit } = request.query;
    const served = readServedBlock(ctx.state);
    const minute = heatMinute(served.blockTs);
    const key = `${window}:${minute}:${ctx.reads.offchainRevision()}`;
    let count = counts.get(key);
    if (!count) {
      const since = minute - HEAT_WINDOWS[window];
      // Fills before the minute: the first block at or after it ends the scan (the served block at the latest).
      const endBlock = Math.min(ctx.state.firstBlockFrom(minute) ?? Infinity, served.block + 1);
      const first = ctx.state.blocks({ limit: 1 })[Symbol.iterator]().next();
      count = {
        since,
        complete: !first.done && first.value.ts <= since,
        events: countEventTraders(ctx, since, endBlock),
      };
      // Only the current minute's counts are worth keeping.
      for (const old of counts.keys()) if (old.split(':')[1] !== String(minute)) counts.delete(old);
      counts.set(key, count);
    }
    return {
      window,
      since: count.since,
      block: served.block,
      events: count.events.slice(0, limit),
      complete: count.complete,
    };
  },
});
