// A combo's result from its legs' (docs/design.md 10, docs/venue-v2.md 1.6): YES pays the product of the legs' payouts,
// NO the rest; a resolved leg paying 0 makes it terminal at once (at the earliest such leg's block), else it is
// terminal when its last leg resolves. The product is taken as the module takes it: from 1e36, each resolved leg's
// payout applied by mulDiv rounded down (YES) or up (NO), then brought to the 1,000,000 denominator tally settles with.
// Pure: the reader derives it from the stored legs on every read, so a leg's result reaches its combos at once.
import { assert } from '../assert.js';
import { RESULT_DENOMINATOR } from '../chain/v2PositionIds.js';
import type { MarketRecord } from './marketRecords.js';

const FACTOR_ONE = 10n ** 36n;
const TO_RESULT = FACTOR_ONE / BigInt(RESULT_DENOMINATOR);

export interface LegResult {
  /** The leg's outcome payout out of 1,000,000, or null while its condition is unresolved. */
  payout: number | null;
  resolvedAt: number;
  resolvedBlock: number;
}

export interface ComboResolution {
  legsResolved: number;
  /** Product of the resolved legs' payouts, rounded down, out of 1,000,000 (1,000,000 with none resolved). */
  resolvedFactor: number;
  /** Terminal: its YES and NO payouts out of 1,000,000, and the time and block it became so. */
  terminal: { yes: number; no: number; resolvedAt: number; resolvedBlock: number } | null;
}

/** The payout of a leg (position `outcomeIndex` of `market`), or null while unresolved. */
export function legResult(market: MarketRecord | null, outcomeIndex: number): LegResult {
  if (!market || market.payoutNumerators === null || market.payoutDenominator === 0)
    return { payout: null, resolvedAt: 0, resolvedBlock: 0 };
  const payout = Math.round(
    ((market.payoutNumerators[outcomeIndex] ?? 0) * RESULT_DENOMINATOR) / market.payoutDenominator,
  );
  // The fold stores a resolution's numerators and denominator as numbers, the denominator checked non-zero above.
  assert(Number.isFinite(payout), "a leg's payout is a number");
  return { payout, resolvedAt: market.resolvedAt, resolvedBlock: market.resolvedBlock };
}

export function comboResolution(legs: readonly LegResult[]): ComboResolution {
  let down = FACTOR_ONE;
  let up = FACTOR_ONE;
  let legsResolved = 0;
  let loser: LegResult | null = null;
  let last: LegResult | null = null;
  for (const leg of legs) {
    if (leg.payout === null) continue;
    legsResolved++;
    if (last === null || leg.resolvedBlock > last.resolvedBlock) last = leg;
    if (leg.payout === 0) {
      if (loser === null || leg.resolvedBlock < loser.resolvedBlock) loser = leg;
      continue;
    }
    const payout = BigInt(leg.payout);
    const denominator = BigInt(RESULT_DENOMINATOR);
    down = (down * payout) / denominator;
    up = (up * payout + denominator - 1n) / denominator;
    // The same product rounded down and up: never apart by more than the roundings.
    assert(down <= up, "a combo's product rounded down is at most the one rounded up");
  }
  if (loser !== null) down = up = 0n;
  const resolvedFactor = Number(down / TO_RESULT);
  const at = loser ?? (legsResolved === legs.length ? last : null);
  const terminal = at
    ? {
        yes: resolvedFactor,
        no: RESULT_DENOMINATOR - Number((up + TO_RESULT - 1n) / TO_RESULT),
        resolvedAt: at.resolvedAt,
        resolvedBlock: at.resolvedBlock,
      }
    : null;
  // YES takes the product rounded down, NO the rest of it rounded up: together never more than the whole.
  assert(terminal === null || terminal.yes + terminal.no <= RESULT_DENOMINATOR, "a combo's payouts sum to at most 1");
  return { legsResolved, resolvedFactor, terminal };
}

export interface ComboLeg {
  /** The leg's position id, 64 hex. */
  positionId: string;
  /** Its condition's key in the state (the bytes31 id's 32-byte word). */
  market: string;
  outcomeIndex: number;
}

export function comboLegs(record: MarketRecord): ComboLeg[] {
  return (record.v2?.legs ?? []).map((positionId) => ({
    positionId,
    market: '0x' + positionId.slice(0, 62) + '00',
    outcomeIndex: parseInt(positionId.slice(62), 16),
  }));
}

/** A combo's record with its result once terminal, as for any resolved market (the stored record has none). */
export function settleCombo(record: MarketRecord, readMarket: (market: string) => MarketRecord | null): MarketRecord {
  assert(record.v2?.legs, 'only a combo is settled from its legs');
  const resolution = comboResolution(
    comboLegs(record).map((leg) => legResult(readMarket(leg.market), leg.outcomeIndex)),
  );
  if (resolution.terminal) {
    record.payoutNumerators = [resolution.terminal.yes, resolution.terminal.no];
    record.payoutDenominator = RESULT_DENOMINATOR;
    record.resolvedAt = resolution.terminal.resolvedAt;
    record.resolvedBlock = resolution.terminal.resolvedBlock;
  }
  return record;
}
