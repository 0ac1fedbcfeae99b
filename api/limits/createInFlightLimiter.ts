// Per-key concurrency (spec 8, api/README.md): at most 4 requests in flight, of which at most 2 streams
// (the fills feed and other bulk answers). A request holds its slot until its answer is fully written.

export interface InFlightLimiter {
  readonly maxRequests: number;
  readonly maxStreams: number;
  /** Takes a slot, or returns false when the key is at its limit. */
  enter(key: string, stream: boolean): boolean;
  leave(key: string, stream: boolean): void;
}

export function createInFlightLimiter(options: { requests?: number; streams?: number } = {}): InFlightLimiter {
  const maxRequests = options.requests ?? 4;
  const maxStreams = options.streams ?? 2;
  const counts = new Map<string, { requests: number; streams: number }>();
  return {
    maxRequests,
    maxStreams,
    enter(key, stream) {
      let count = counts.get(key);
      if (!count) counts.set(key, (count = { requests: 0, streams: 0 }));
      if (count.requests >= maxRequests || (stream && count.streams >= maxStreams)) return false;
      count.requests++;
      if (stream) count.streams++;
      return true;
    },
    leave(key, stream) {
      const count = counts.get(key);
      if (!count) return;
      count.requests--;
      if (stream) count.streams--;
      if (count.requests === 0) counts.delete(key);
    },
  };
}
