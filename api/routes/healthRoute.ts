// GET /v1/health (api/README.md): the folded block, how far it trails the source, the log's size.
import { readdirSync } from 'node:fs';
import type { RouteContext } from '../routeContext.js';
import { readServedBlock } from '../readServedState.js';
import { heatMinute } from './eventHeatRoute.js';

export function healthRoute(ctx: RouteContext): unknown {
  const served = readServedBlock(ctx.state);
  const source = ctx.sourceHead();
  const sourceHead = Math.max(source.block, served.block);
  let segments = 0;
  try {
    segments = readdirSync(ctx.paths.log).filter((f) => f.endsWith('.seg')).length;
  } catch {
    segments = 0;
  }
  const lagBlocks = sourceHead - served.block;
  return {
    status: lagBlocks > 256 ? 'degraded' : 'ok',
    block: served.block,
    blockTs: served.blockTs,
    sourceHead,
    lagBlocks,
    lagSeconds: source.ts > served.blockTs ? source.ts - served.blockTs : 0,
    log: { events: served.events, segments },
    // Heat is counted on demand for the served block's minute: that minute is its rollup (null with no fills kept).
    rollups: { leaderboard: ctx.state.board()?.block ?? null, tags: ctx.state.latestTagRunNumber(), heat: ctx.state.keepsTrades() && served.block > 0 ? heatMinute(served.blockTs) : null },
    version: ctx.version,
  };
}
