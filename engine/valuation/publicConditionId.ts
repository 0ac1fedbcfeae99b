// The condition id answers show (docs/design.md 10): a first-ledger condition's own id; a Protocol V2 condition's
// legacy CTF id when it is a migration condition, else its bytes31 id written 0x + 62 hex (the state keys it by its
// 32-byte word). The market routes accept both forms.
import type { MarketRecord } from '../state/marketRecords.js';

export function publicConditionId(market: MarketRecord): string {
  if (!market.v2) return market.conditionId;
  return market.v2.legacyConditionId ?? market.conditionId.slice(0, 64);
}

/** The V2 condition id (0x + 62 hex) of a V2 record, null for the first ledger's. */
export function v2ConditionIdOf(market: MarketRecord): string | null {
  return market.v2 ? market.conditionId.slice(0, 64) : null;
}
