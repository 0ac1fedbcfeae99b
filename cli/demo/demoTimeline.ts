// The demo venue's clock: 45 days of 2-second blocks ending at a fixed instant, the eras inside them, and the
// activity curve that spreads the fills over time (growing over the weeks, with a daily cycle, never idle, so
// the last 7 days are busy). Pure arithmetic; every "when" of the simulator is a block number.

export const DEMO_DAYS = 45;
export const BLOCK_SECONDS = 2;
/** 2026-11-01T00:00:00Z: the capture ends just before it. */
export const DEMO_END_TS = Date.UTC(2026, 10, 1) / 1000;
export const DEMO_START_TS = DEMO_END_TS - DEMO_DAYS * 86400;
export const DEMO_FIRST_BLOCK = 92_000_000;
/** The last block of the capture (its timestamp is DEMO_END_TS - 2). */
export const DEMO_LAST_BLOCK = DEMO_FIRST_BLOCK + (DEMO_DAYS * 86400) / BLOCK_SECONDS - 1;

/** Fraction of the timeline after which the V2 exchanges replace V1. */
export const V2_CUTOVER_FRACTION = 0.8;
/** Fraction of the timeline during which the AMM pools trade. */
export const AMM_ERA_FRACTION = 0.12;

export function blockTs(block: number): number {
  return DEMO_START_TS + (block - DEMO_FIRST_BLOCK) * BLOCK_SECONDS;
}

/** The first block whose timestamp is >= ts. */
export function blockAtOrAfter(ts: number): number {
  return DEMO_FIRST_BLOCK + Math.ceil((ts - DEMO_START_TS) / BLOCK_SECONDS);
}

/** The last block whose timestamp is <= ts. */
export function blockAtOrBefore(ts: number): number {
  return DEMO_FIRST_BLOCK + Math.floor((ts - DEMO_START_TS) / BLOCK_SECONDS);
}

/** The block at a fraction of the timeline. */
export function blockAtFraction(fraction: number): number {
  return DEMO_FIRST_BLOCK + Math.floor((DEMO_LAST_BLOCK - DEMO_FIRST_BLOCK) * fraction);
}

export const V2_CUTOVER_BLOCK = blockAtFraction(V2_CUTOVER_FRACTION);
export const AMM_ERA_END_BLOCK = blockAtFraction(AMM_ERA_FRACTION);

// Activity density over x in [0, 1]: 1 + 0.6x (growth) + 0.4 sin(2π·days·x + φ) (daily cycle, peak 15:00 UTC).
// Its integral is closed-form, so the fill target at any block costs a few float ops.
const GROWTH = 0.6;
const CYCLE = 0.4;
const PHASE = -0.75 * Math.PI;
const CYCLE_FREQ = 2 * Math.PI * DEMO_DAYS;
const TOTAL = 1 + GROWTH / 2;

/** Share (0..1) of all fills that should have happened by the end of `block`; 1 at the last block. */
export function activityShare(block: number): number {
  if (block >= DEMO_LAST_BLOCK) return 1;
  const x = (block - DEMO_FIRST_BLOCK + 1) / (DEMO_LAST_BLOCK - DEMO_FIRST_BLOCK + 1);
  const integral =
    x + (GROWTH / 2) * x * x + (CYCLE * (Math.cos(PHASE) - Math.cos(CYCLE_FREQ * x + PHASE))) / CYCLE_FREQ;
  return Math.min(1, Math.max(0, integral / TOTAL));
}

/** ISO 8601 of a unix timestamp, as Gamma writes dates. */
export function isoOf(ts: number): string {
  return new Date(ts * 1000).toISOString();
}
