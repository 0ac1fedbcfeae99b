// Market registry entries of Protocol V2 conditions (docs/design.md 10): a native V2 market has no preparation event,
// so a condition is registered by the first event that names it. Its key is the condition's 32-byte word (the bytes31
// id and a zero byte, v2ChainEvent.ts), its tokens the YES and NO position ids (the id and outcome byte 0 or 1).
import { v2ModuleOf, v2PositionId, V2_MODULE } from '../chain/v2PositionIds.js';
import { v2IdWord } from '../chain/v2ChainEvent.js';
import { createMarketRecord, type MarketRecord } from '../state/marketRecords.js';
import type { DeriveContext } from './deriveContext.js';
import { setTokens } from './registerCondition.js';
import { assert } from '../assert.js';

/** The record of the condition kept in `word`, created if the registry lacks it; null for an unknown module. */
export function ensureV2Condition(ctx: DeriveContext, word: string): MarketRecord | null {
  // The word a bytes31 id is kept in (v2ChainEvent.ts): the log's form of a V2 condition, or v2IdWord's.
  assert(word.length === 66, 'a V2 condition is named by its 32-byte word');
  const existing = ctx.registry.market(word);
  if (existing?.tokens) {
    // Only this function registers a V2 word's tokens, with its V2 facts; a CTF condition id is a keccak hash, which
    // no V2 word (module byte, id, zero byte) equals.
    assert(existing.v2 !== undefined, "a V2 condition's record holds its V2 facts");
    return existing;
  }
  const conditionId = word.slice(0, 64);
  const moduleId = v2ModuleOf(conditionId.slice(2));
  if (moduleId !== V2_MODULE.binary && moduleId !== V2_MODULE.negRisk && moduleId !== V2_MODULE.combinatorial)
    return null;
  const market = existing ?? createMarketRecord(word);
  market.negRisk = moduleId === V2_MODULE.negRisk;
  market.v2 = { moduleId, legs: null, legacyConditionId: null };
  setTokens(ctx, market, [v2PositionId(conditionId, 0), v2PositionId(conditionId, 1)]);
  return market;
}

/** The record of a position id's condition (see ensureV2Condition). */
export function ensureV2Position(ctx: DeriveContext, positionId: string): MarketRecord | null {
  // A position id as the log keeps token ids: 64 hex, its last byte the outcome.
  assert(positionId.length === 64, 'a V2 position id is 32 bytes of hex');
  return ensureV2Condition(ctx, v2IdWord('0x' + positionId.slice(0, 62)));
}

/** A CTF condition's link to its migration condition (`word`): the two ledgers' positions are one market. */
export function linkMigration(ctx: DeriveContext, legacy: MarketRecord, word: string): void {
  // The migration condition's record key: the word of the V2 condition a derive just registered.
  assert(word.length === 66, 'a migration links to a condition key');
  if (legacy.migration === word) return;
  legacy.migration = word;
  ctx.registry.putMarket(legacy);
}
