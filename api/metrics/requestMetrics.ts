// Request counts and latency by route and status, for /metrics (api/README.md, Operating). Each route keeps, per
// status it answered, the counts of a fixed set of latency buckets in a typed array: a request costs a Map
// lookup, a scan of 16 bounds and three additions, and allocates nothing once its route and status have been
// seen (prom-client's labelled observe, measured at about 500 ns, builds a labels string per call).
import { Exposition, label } from './exposition.js';

/** Upper bounds in seconds: cached answers take tens of microseconds, a fills-feed stream seconds. */
const BOUNDS_SECONDS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];
const BOUND_LABELS = BOUNDS_SECONDS.map((bound) => label('le', String(bound)));

class StatusSeries {
  /** buckets[i]: requests in (BOUNDS[i-1], BOUNDS[i]]; the last one, beyond every bound. */
  readonly buckets = new Float64Array(BOUNDS_SECONDS.length + 1);
  sumSeconds = 0;
  count = 0;
}

export class RouteMetrics {
  private readonly byStatus = new Map<number, StatusSeries>();

  /** `route`: the route's pattern, or what stands for a group of paths ("other"). */
  constructor(readonly route: string) {}

  observe(status: number, seconds: number): void {
    let series = this.byStatus.get(status);
    if (series === undefined) this.byStatus.set(status, (series = new StatusSeries()));
    let bucket = 0;
    while (bucket < BOUNDS_SECONDS.length && seconds > BOUNDS_SECONDS[bucket]!) bucket++;
    series.buckets[bucket]!++;
    series.sumSeconds += seconds;
    series.count++;
  }

  /** Statuses in ascending order, with their series. */
  statuses(): Array<[number, StatusSeries]> {
    return [...this.byStatus].sort((a, b) => a[0] - b[0]);
  }
}

export function writeRequestMetrics(out: Exposition, routes: RouteMetrics[]): void {
  const seen = routes.flatMap((route) =>
    route.statuses().map(([status, series]) => ({
      labels: `${label('route', route.route)},${label('status', String(status))}`,
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
    out.sample('tally_http_request_duration_seconds_sum', series.sumSeconds, labels);
    out.sample('tally_http_request_duration_seconds_count', series.count, labels);
  }
}
