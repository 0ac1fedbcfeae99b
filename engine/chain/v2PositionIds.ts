// Protocol V2 structured ids (docs/venue-v2.md 1.2-1.4, docs/design.md 10): a position id is, high to low,
// moduleId(8) | baseHash(128) | arity(16) | reserved(64) | resolutionChain(16) | conditionIndex(16) | outcomeIndex(8).
// Tokens are tally's 64-hex form (no 0x); a V2 condition id is the position id without its outcome byte, written
// 0x + 62 hex; an event id drops the condition index too (0x + 58 hex). Everything here is string slicing except
// the combo id, which hashes its legs.
import { keccak256 } from 'viem';
import { assert } from '../assert.js';

export const V2_MODULE = { binary: 1, negRisk: 2, combinatorial: 3 } as const;
export const YES = 0;
export const NO = 1;
/** Results are out of this (ConditionResolved's [yes, no]). */
export const RESULT_DENOMINATOR = 1_000_000;
export const MAX_COMBO_LEGS = 50;

const CONDITION_HEX = /^0x[0-9a-f]{62}$/;

/** The module byte of a V2 position id (1 binary, 2 neg-risk, 3 combinatorial). */
export function v2ModuleOf(token: string): number {
  return parseInt(token.slice(0, 2), 16);
}

/** The position's condition: its id without the outcome byte, 0x + 62 hex. */
export function v2ConditionOf(token: string): string {
  return '0x' + token.slice(0, 62);
}

/** 0 = YES, 1 = NO. */
export function v2OutcomeOf(token: string): number {
  return parseInt(token.slice(62, 64), 16);
}

/** The position id (64 hex) of a condition's outcome. */
export function v2PositionId(conditionId: string, outcome: number): string {
  return conditionId.slice(2) + (outcome < 16 ? '0' : '') + outcome.toString(16);
}

/** The other outcome of the same condition (YES <-> NO): consecutive ids ...00 and ...01. */
export function v2OppositeToken(token: string): string {
  return token.slice(0, 62) + (token.charCodeAt(63) === 48 ? '01' : '00');
}

/** The condition's event (neg-risk: its event; others: itself with index 0), 0x + 58 hex. */
export function v2EventOf(conditionId: string): string {
  return conditionId.slice(0, 60);
}

/** Index of a condition within its neg-risk event (0 for binary and combinatorial). */
export function v2ConditionIndexOf(conditionId: string): number {
  return parseInt(conditionId.slice(60, 64), 16);
}

/** A neg-risk event's real condition count (0 for the other modules). */
export function v2ArityOf(conditionIdOrEventId: string): number {
  return parseInt(conditionIdOrEventId.slice(36, 40), 16);
}

/** The condition at `index` of a neg-risk event (index == arity is the synthetic Other). */
export function v2EventConditionId(eventId: string, index: number): string {
  return eventId + index.toString(16).padStart(4, '0');
}

/** A bytes31 condition id as an indexed topic holds it: 31 bytes left-aligned, then one zero byte. */
export function v2ConditionFromTopic(topic64: string): string {
  return '0x' + topic64.slice(0, 62);
}

/** A bytes29 event id as an indexed topic holds it: 29 bytes left-aligned, three zero bytes. */
export function v2EventFromTopic(topic64: string): string {
  return '0x' + topic64.slice(0, 58);
}

export function isV2ConditionId(text: string): boolean {
  return CONDITION_HEX.test(text);
}

/** Sorts legs into the canonical order the module requires: ascending as uint256 (equal-width hex sorts so). */
export function canonicalLegs(legs: readonly string[]): string[] {
  return [...legs].sort();
}

/**
 * The combinatorial condition of canonical legs (CombinatorialModule.getConditionId): baseHash =
 * keccak256(abi.encode(uint256(3), abi.encode(uint256[] legs))), kept to its low 128 bits, arity, reserved, chain
 * and index 0.
 */
export function comboConditionId(legs: readonly string[]): string {
  assert(legs.length >= 1 && legs.length <= MAX_COMBO_LEGS, 'a combo has 1 to 50 legs');
  for (let i = 1; i < legs.length; i++) assert(legs[i - 1]! < legs[i]!, 'combo legs must be canonical');
  const n = legs.length;
  // abi.encode(uint256 3, bytes data) with data = abi.encode(uint256[]): 3, offset 0x40, data length, then data
  // (offset 0x20, count, the legs): all whole words, so no padding.
  const word = (value: number) => value.toString(16).padStart(64, '0');
  const input = '0x' + word(3) + word(64) + word(32 * (n + 2)) + word(32) + word(n) + legs.join('');
  const hash = keccak256(input as `0x${string}`);
  return '0x03' + hash.slice(-32) + '0'.repeat(28);
}

/**
 * A binary migration condition (BinaryMigrationMixin): module 1, baseHash = the legacy CTF condition id (its low
 * 128 bits kept), arity and index 0.
 */
export function binaryMigrationConditionId(legacyConditionId: string): string {
  return '0x01' + legacyConditionId.slice(-32) + '0'.repeat(28);
}

/**
 * The neg-risk migration event of a legacy NegRisk market (NegRiskMigrationMixin): module 2, baseHash = the legacy
 * market id's low 128 bits, arity = its question count; question i is the event's condition i.
 */
export function negRiskMigrationEventId(legacyMarketId: string, questionCount: number): string {
  return '0x02' + legacyMarketId.slice(-32) + questionCount.toString(16).padStart(4, '0') + '0'.repeat(20);
}
