// Per-key request rate (spec 8): at most 600 requests in any 60 seconds, so the 601st within a minute is refused.
// A ring of each key's last 600 request times gives that exactly; the clock is passed in, so it is testable.

export interface RateDecision {
  allowed: boolean;
  /** Requests still allowed in the current window after this one (x-ratelimit-remaining). */
  remaining: number;
  /** Whole seconds until the oldest request leaves the window (Retry-After), when refused. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  readonly limit: number;
  take(key: string, nowMs: number): RateDecision;
}

const WINDOW_MS = 60_000;

export function createRateLimiter(options: { perMinute?: number } = {}): RateLimiter {
  const limit = options.perMinute ?? 600;
  // times[next] is the oldest of the last `limit` requests once the ring is full.
  const windows = new Map<string, { times: Float64Array; next: number; count: number }>();
  return {
    limit,
    take(key, nowMs) {
      let window = windows.get(key);
      if (!window) windows.set(key, (window = { times: new Float64Array(limit), next: 0, count: 0 }));
      const oldest = window.count < limit ? -Infinity : window.times[window.next]!;
      if (window.count === limit && nowMs - oldest < WINDOW_MS) {
        return {
          allowed: false,
          remaining: 0,
          retryAfterSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - nowMs) / 1000)),
        };
      }
      window.times[window.next] = nowMs;
      window.next = (window.next + 1) % limit;
      if (window.count < limit) window.count++;
      // Requests of the last minute, this one included.
      let recent = 0;
      for (let i = 0; i < window.count; i++) if (nowMs - window.times[i]! < WINDOW_MS) recent++;
      return { allowed: true, remaining: limit - recent, retryAfterSeconds: 0 };
    },
  };
}
