// Market registry entries of Protocol V2 conditions (docs/design.md 10): a native V2 market has no preparation event,
// so a condition is registered by the first event that names it. Its key is the condition's 32-byte word (the bytes31
// id and a zero byte, v2ChainEvent.ts), its tokens the YES and NO position ids (the id and outcome byte 0 or 1).
import { v2ModuleOf, v2PositionId, V2_MODULE } from '../chain/v2PositionIds.js';
import { v2IdWord } from '../chain/v2ChainEvent.js';
import { createMarketRecord, type MarketRecord } from '../state/marketRecords.js';
import type { DeriveContext } from './deriveContext.js';
import { setTokens } from './registerCondition.js';

/** The record of the condition kept in `word`, created if the registry lacks it; null for an unknown module. */
export function ensureV2Condition(ctx: DeriveContext, word: string): MarketRecord | null {
  const existing = ctx.registry.market(word);
  if (existing?.tokens) return existing;
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
  return ensureV2Condition(ctx, v2IdWord('0x' + positionId.slice(0, 62)));
}

/** A CTF condition's link to its migration condition (`word`): the two ledgers' positions are one market. */
export function linkMigration(ctx: DeriveContext, legacy: MarketRecord, word: string): void {
  if (legacy.migration === word) return;
  legacy.migration = word;
  ctx.registry.putMarket(legacy);
}
