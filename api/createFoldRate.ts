// The fold's rate over the last minute, for /metrics: the served cursor (folded block and events) sampled every
// few seconds into a ring, compared at each scrape with the oldest sample of the window. Under `tally run` the
// cursor moves with this process's fold; under `serve`, with whatever process folds the directory (0 when none).

export interface FoldPoint {
  block: number;
  events: number;
}

export interface FoldRate {
  /** Records the cursor as of nowMs (called every SAMPLE_MS). */
  sample(nowMs: number, point: FoldPoint): void;
  /** Blocks and events a second between the oldest sample of the window and `point`, taken at nowMs. */
  rate(nowMs: number, point: FoldPoint): { blocksPerSecond: number; eventsPerSecond: number };
}

export const SAMPLE_MS = 5_000;
const WINDOW_MS = 60_000;
const SLOTS = WINDOW_MS / SAMPLE_MS + 1;

export function createFoldRate(): FoldRate {
  const times = new Float64Array(SLOTS);
  const blocks = new Float64Array(SLOTS);
  const events = new Float64Array(SLOTS);
  let next = 0;
  let count = 0;
  return {
    sample(nowMs, point) {
      times[next] = nowMs;
      blocks[next] = point.block;
      events[next] = point.events;
      next = (next + 1) % SLOTS;
      if (count < SLOTS) count++;
    },
    rate(nowMs, point) {
      // The oldest sample still within the window (the ring holds a little more than the window).
      let oldest = -1;
      for (let i = 0; i < count; i++) {
        const slot = (next - count + i + SLOTS) % SLOTS;
        if (nowMs - times[slot]! <= WINDOW_MS) {
          oldest = slot;
          break;
        }
      }
      const seconds = oldest === -1 ? 0 : (nowMs - times[oldest]!) / 1000;
      if (seconds <= 0) return { blocksPerSecond: 0, eventsPerSecond: 0 };
      // A rewind moves the cursor back: no negative rates.
      return {
        blocksPerSecond: Math.max(0, point.block - blocks[oldest]!) / seconds,
        eventsPerSecond: Math.max(0, point.events - events[oldest]!) / seconds,
      };
    },
  };
}
