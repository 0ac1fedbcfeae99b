// What /metrics exports (api/README.md, Operating): the fold's progress and lag (as /v1/health computes it) and
// its rate over the last minute, requests by route and status with their latency, the answer cache's hits, and
// the process's memory and CPU. Rendered on each scrape; the request path only counts.
import type { RouteContext } from '../routeContext.js';
import { readFoldLag, type FoldLag } from '../readFoldLag.js';
import { readCatchUp, type CatchUp } from '../readCatchUp.js';
import { createFoldRate, SAMPLE_MS } from '../createFoldRate.js';
import { Exposition, label } from './exposition.js';
import {
  createRequestMetrics,
  createRequestMetricsMemory,
  type RouteMetrics,
  writeRequestMetrics,
} from './requestMetrics.js';

export interface ServerMetrics {
  /** The counters of a route (or a group of paths), exported in the order they were asked for. */
  route(name: string): RouteMetrics;
  /** Counts a lookup of the answer cache that found the answer, or did not. */
  cacheLookup(hit: boolean): void;
  render(): string;
  /** Whether the state is catching up, from this server's samples of the fold's rate (readCatchUp.ts). */
  catchUp(lag?: FoldLag): CatchUp;
  close(): void;
}

/** `memory`: the request counters' (requestMetrics.ts), shared by the threads serving one port; its own by default. */
export function createServerMetrics(
  ctx: Pick<RouteContext, 'state' | 'sourceHead' | 'version'>,
  memory: SharedArrayBuffer = createRequestMetricsMemory(),
): ServerMetrics {
  const requests = createRequestMetrics(memory);
  const routes: RouteMetrics[] = [];
  const foldRate = createFoldRate();
  foldRate.sample(Date.now(), ctx.state.cursor());
  // unref: sampling never keeps the process alive.
  const sampler = setInterval(() => foldRate.sample(Date.now(), ctx.state.cursor()), SAMPLE_MS).unref();
  const startSeconds = Math.round(Date.now() / 1000 - process.uptime());
  const metrics: ServerMetrics = {
    route(name) {
      const route = requests.route(name);
      routes.push(route);
      return route;
    },
    cacheLookup: requests.cacheLookup,
    catchUp: (lag) => readCatchUp(ctx, foldRate, Date.now(), lag),
    render() {
      const out = new Exposition();
      const gauge = (name: string, help: string, value: number, labels = '') =>
        out.family(name, 'gauge', help).sample(name, value, labels);
      const counter = (name: string, help: string, value: number) =>
        out.family(name, 'counter', help).sample(name, value);
      const cursor = ctx.state.cursor();
      const lag = readFoldLag(ctx);
      const rate = foldRate.rate(Date.now(), cursor);
      gauge('tally_build_info', "The server's version, as a label.", 1, label('version', ctx.version));
      gauge('tally_fold_block', 'The last folded block: the block every answer reflects.', lag.block);
      gauge('tally_fold_block_timestamp_seconds', "The last folded block's time (Unix seconds).", lag.blockTs);
      gauge(
        'tally_fold_blocks',
        'Blocks folded into the state (those holding venue events).',
        Math.max(0, cursor.blocks),
      );
      gauge('tally_fold_events', 'Events folded into the state.', lag.events);
      gauge(
        'tally_source_head_block',
        "The source's newest block (the node's finalized head under RPC).",
        lag.sourceHead,
      );
      gauge('tally_fold_lag_blocks', 'Blocks the folded state trails the source by (health lagBlocks).', lag.lagBlocks);
      gauge(
        'tally_fold_lag_seconds',
        'Chain seconds the folded state trails the source by (health lagSeconds).',
        lag.lagSeconds,
      );
      gauge(
        'tally_source_outage_seconds',
        'Seconds the chain source has failed every request (0 while it answers).',
        lag.outage?.seconds ?? 0,
      );
      gauge(
        'tally_fold_rate_blocks_per_second',
        'Chain blocks the fold advanced a second, last minute.',
        rate.blocksPerSecond,
      );
      gauge('tally_fold_rate_events_per_second', 'Events folded a second, last minute.', rate.eventsPerSecond);
      const catchUp = readCatchUp(ctx, foldRate, Date.now());
      gauge(
        'tally_fold_backfill',
        'Whether the fold is backfilling (1; the state routes answer 503 until its hand-off) or live (0).',
        catchUp.mode === 'backfill' ? 1 : 0,
      );
      if (catchUp.target !== null)
        gauge('tally_fold_target_block', 'The block the backfill is folding towards.', catchUp.target);
      if (catchUp.etaSeconds !== null)
        gauge(
          'tally_fold_eta_seconds',
          "Seconds to the backfill's target block at the last minute's rate.",
          catchUp.etaSeconds,
        );
      const board = ctx.state.board();
      if (board !== null) gauge('tally_leaderboard_block', 'The block of the last board rollup.', board.block);
      writeRequestMetrics(out, routes);
      const cache = requests.cacheCounts();
      counter('tally_answer_cache_hits_total', 'Answers served from the answer cache.', cache.hits);
      counter('tally_answer_cache_misses_total', 'Cacheable answers computed from the state.', cache.misses);
      const cpu = process.cpuUsage();
      const memory = process.memoryUsage();
      gauge(
        'process_resident_memory_bytes',
        "Resident memory in bytes (the state's mapped pages included).",
        memory.rss,
      );
      counter('process_cpu_seconds_total', 'User and system CPU time spent in seconds.', (cpu.user + cpu.system) / 1e6);
      gauge('process_start_time_seconds', 'Start time of the process since the Unix epoch in seconds.', startSeconds);
      gauge('nodejs_heap_size_used_bytes', 'JavaScript heap in use, in bytes.', memory.heapUsed);
      return out.text();
    },
    close: () => clearInterval(sampler),
  };
  return metrics;
}
