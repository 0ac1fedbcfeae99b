// Whether the served state is catching up (a backfill, engine/README.md, Backfill) and how long it has left: what
// /v1/health and /metrics show, and what a state route answers meanwhile (api/README.md, Catching up). Until the
// hand-off the owner-first tables are stale, so the state routes answer 503 rather than a torn state.
import type { FoldRate } from './createFoldRate.js';
import { readFoldLag, type FoldLag } from './readFoldLag.js';
import { UNKNOWN_TARGET } from '../engine/state/backfillRecord.js';
import type { RouteContext } from './routeContext.js';

export interface CatchUp {
  mode: 'backfill' | 'live';
  /** The last folded block. */
  block: number;
  /**
   * Backfilling: the block it was aimed at, or the source's head when that is further; null while live, and while the
   * source's end is not known (a capture read from a pipe).
   */
  target: number | null;
  /** Blocks folded a second over the last minute (this process's samples of the cursor). */
  blocksPerSecond: number;
  /** Backfilling: seconds to the target at that rate, null while live or before the rate is known. */
  etaSeconds: number | null;
}

/** Retry-After while the time left is not known yet. */
const UNKNOWN_RETRY_SECONDS = 10;

/** `lag`: the fold's lag when the caller has read it already (health answers both from one read). */
export function readCatchUp(
  ctx: Pick<RouteContext, 'state' | 'sourceHead'>,
  rate: FoldRate,
  nowMs: number,
  lag: FoldLag = readFoldLag(ctx),
): CatchUp {
  const backfill = ctx.state.backfill();
  const { blocksPerSecond } = rate.rate(nowMs, ctx.state.cursor());
  if (backfill === null) return { mode: 'live', block: lag.block, target: null, blocksPerSecond, etaSeconds: null };
  const unknown = backfill.target === UNKNOWN_TARGET && lag.sourceHead <= lag.block;
  const target = unknown ? null : Math.max(backfill.target, lag.sourceHead);
  const etaSeconds = blocksPerSecond > 0 && target !== null ? Math.ceil((target - lag.block) / blocksPerSecond) : null;
  return { mode: 'backfill', block: lag.block, target, blocksPerSecond, etaSeconds };
}

/** `catching up: block X of Y, about N min left` (the time left once the rate is known). */
export function catchingUpText(catchUp: CatchUp): string {
  const left = catchUp.etaSeconds === null ? '' : `, about ${Math.max(1, Math.ceil(catchUp.etaSeconds / 60))} min left`;
  const of = catchUp.target === null ? '' : ` of ${catchUp.target}`;
  return `catching up: block ${catchUp.block}${of}${left}`;
}

/** Retry-After: the time left, from 5 s to a minute. */
export function catchUpRetryAfter(catchUp: CatchUp): string {
  return String(Math.min(60, Math.max(5, catchUp.etaSeconds ?? UNKNOWN_RETRY_SECONDS)));
}
