// The eth_getLogs block range, sized by what the node tolerates: start at `initial` blocks, halve on a range
// error (or an answer at the log cap, which some providers truncate silently), double after an answer with few
// logs. A halving also lowers the ceiling growth may reach, so a provider with a fixed block-range limit is
// not probed with a failing range every other request; the ceiling lifts again after `settle` good answers,
// because log density changes along the chain.

export interface RangeOptions {
  /** Blocks of the first request. Default 2,000. */
  initial?: number;
  /** The largest range ever asked for. Default 50,000. */
  max?: number;
  /** An answer with this many logs or more counts as too many. Default 10,000. */
  logCap?: number;
  /** Good answers before the ceiling a halving set is lifted. Default 50. */
  settle?: number;
}

export interface AdaptiveRange {
  size(): number;
  /** True when the answer is to be discarded and the range halved. */
  isTooMany(logs: number, blocks: number): boolean;
  /** Halves after a failure at `blocks`; false when a single block already failed (halving cannot help). */
  shrink(blocks: number): boolean;
  /** Records a good answer of `logs` logs, growing the range when that was few. */
  succeed(logs: number): void;
}

export function createAdaptiveRange(options: RangeOptions = {}): AdaptiveRange {
  const max = options.max ?? 50_000;
  const logCap = options.logCap ?? 10_000;
  const settle = options.settle ?? 50;
  let size = Math.min(options.initial ?? 2_000, max);
  let ceiling = max;
  let good = 0;
  return {
    size: () => size,
    isTooMany: (logs, blocks) => logs >= logCap && blocks > 1,
    shrink(blocks) {
      if (blocks <= 1) return false;
      size = Math.max(1, Math.floor(blocks / 2));
      ceiling = size;
      good = 0;
      return true;
    },
    succeed(logs) {
      if (++good >= settle) ceiling = max;
      if (logs < logCap / 4) size = Math.min(size * 2, ceiling);
    },
  };
}
