// One wallet's positions in one outcome of a market held on both ledgers (a CTF market and its Protocol V2
// migration condition, docs/design.md 10) as one: the counters summed, the flags joined, the first and last trade times
// over both, and the later low-balance time while the sum is below 0.1 share.
import { createPosition, OPEN_THRESHOLD_MICROS, type Position } from '../reducers/position.js';

const FIELDS = Object.keys(createPosition()) as Array<keyof Position>;

export function sumPositions(a: Position | null, b: Position | null): Position | null {
  if (a === null || b === null) return a ?? b;
  const sum = createPosition();
  for (const field of FIELDS) sum[field] = a[field] + b[field];
  sum.flags = a.flags | b.flags;
  const firsts = [a.firstTradeAt, b.firstTradeAt].filter((ts) => ts > 0);
  sum.firstTradeAt = firsts.length > 0 ? Math.min(...firsts) : 0;
  sum.lastTradeAt = Math.max(a.lastTradeAt, b.lastTradeAt);
  sum.lowSinceTs = sum.shares < OPEN_THRESHOLD_MICROS ? Math.max(a.lowSinceTs, b.lowSinceTs) : 0;
  return sum;
}
