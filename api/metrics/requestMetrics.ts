// Request counts and latency by route and status, for /metrics (api/README.md, Operating), in memory the threads
// serving one port share (issue 26), so a scrape of any thread counts every thread's requests. Each route has, per
// status the server answers, the counts of a fixed set of latency buckets, the count and the summed microseconds:
// integers added atomically, nothing allocated per request (prom-client's labelled observe, measured at about
// 500 ns, builds a labels string per call).
import { AssertionFailure } from '../../engine/assert.js';
import { Exposition, label } from './exposition.js';

/** Upper bounds in seconds: cached answers take tens of microseconds, a fills-feed stream seconds. */
const BOUNDS_SECONDS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];
const BOUND_LABELS = BOUNDS_SECONDS.map((bound) => label('le', String(bound)));
/** Every status the server answers with; any other is counted as 500 (none is expected). */
const STATUSES = [200, 204, 304, 400, 401, 404, 405, 414, 429, 431, 500, 503];
const STATUS_INDEX = new Map(STATUSES.map((status, i) => [status, i]));
/** Per route and status: the buckets (the last one beyond every bound), then the count and the microseconds. */
const BUCKETS = BOUNDS_SECONDS.length + 1;
const COUNT = BUCKETS;
const MICROSECONDS = BUCKETS + 1;
const SERIES = BUCKETS + 2;
const ROUTE_SLOTS = STATUSES.length * SERIES;
/** Routes counted at most; the answer cache's two counters follow theirs. */
const MAX_ROUTES = 64;

/** The request counters' memory; shared by the threads serving one port. */
export function createRequestMetricsMemory(): SharedArrayBuffer {
  return new SharedArrayBuffer((MAX_ROUTES * ROUTE_SLOTS + 2) * 8);
}

export class RouteMetrics {
  /** `route`: the route's pattern, or what stands for a group of paths ("other"); `base`: its counters. */
  constructor(
    readonly route: string,
    private readonly counters: BigInt64Array,
    private readonly base: number,
  ) {}

  observe(status: number, seconds: number): void {
    const series = this.base + (STATUS_INDEX.get(status) ?? STATUS_INDEX.get(500)!) * SERIES;
    let bucket = 0;
    while (bucket < BOUNDS_SECONDS.length && seconds > BOUNDS_SECONDS[bucket]!) bucket++;
    Atomics.add(this.counters, series + bucket, 1n);
    Atomics.add(this.counters, series + COUNT, 1n);
    Atomics.add(this.counters, series + MICROSECONDS, BigInt(Math.round(seconds * 1e6)));
  }

  /** The statuses answered so far, ascending, each with its buckets, count and seconds. */
  statuses(): Array<{ status: number; buckets: number[]; count: number; seconds: number }> {
    return STATUSES.map((status, i) => {
      const series = this.base + i * SERIES;
      const read = (at: number) => Number(Atomics.load(this.counters, series + at));
      return {
        status,
        buckets: Array.from({ length: BUCKETS }, (_, bucket) => read(bucket)),
        count: read(COUNT),
        seconds: read(MICROSECONDS) / 1e6,
      };
    }).filter((series) => series.count > 0);
  }
}

/** The routes' counters over `memory`: the n-th route asked for takes the n-th place, in every thread alike. */
export function createRequestMetrics(memory: SharedArrayBuffer) {
  const counters = new BigInt64Array(memory);
  const cache = MAX_ROUTES * ROUTE_SLOTS;
  let routes = 0;
  return {
    route(name: string): RouteMetrics {
      if (routes === MAX_ROUTES) throw new AssertionFailure(`more than ${MAX_ROUTES} routes to count`);
      return new RouteMetrics(name, counters, routes++ * ROUTE_SLOTS);
    },
    /** Lookups of the answer cache that found the answer (`hit`), or not. */
    cacheLookup(hit: boolean): void {
      Atomics.add(counters, cache + (hit ? 0 : 1), 1n);
    },
    cacheCounts: () => ({
      hits: Number(Atomics.load(counters, cache)),
      misses: Number(Atomics.load(counters, cache + 1)),
    }),
  };
}

export function writeRequestMetrics(out: Exposition, routes: RouteMetrics[]): void {
  const seen = routes.flatMap((route) =>
    route.statuses().map((series) => ({
      labels: `${label('route', route.route)},${label('status', String(series.status))}`,
      series,
    })),
  );
  out.family('tally_http_requests_total', 'counter', 'HTTP requests answered, by route pattern and status.');
  for (const { labels, series } of seen) out.sample('tally_http_requests_total', series.count, labels);
  out.family(
    'tally_http_request_duration_seconds',
    'histogram',
    'From a request reaching its handler to its answer written (a stream, a gzip made off the event loop included).',
  );
  for (const { labels, series } of seen) {
    let cumulative = 0;
    for (let i = 0; i < BOUNDS_SECONDS.length; i++) {
      cumulative += series.buckets[i]!;
      out.sample('tally_http_request_duration_seconds_bucket', cumulative, `${labels},${BOUND_LABELS[i]!}`);
    }
    out.sample('tally_http_request_duration_seconds_bucket', series.count, `${labels},${label('le', '+Inf')}`);
    out.sample('tally_http_request_duration_seconds_sum', series.seconds, labels);
    out.sample('tally_http_request_duration_seconds_count', series.count, labels);
  }
}
