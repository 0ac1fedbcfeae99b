// The condition id the Data API shapes show (docs/venue-api.md): 0x plus 64 hex, as their clients check. A first
// ledger condition, or a Protocol V2 one migrated from it, shows its CTF id; another V2 condition, whose id is 31
// bytes, shows the 32-byte word the log keeps it in (its id and a zero byte), where /v1 shows the 62-hex id.
import type { MarketRecord } from '../../engine/state/marketRecords.js';

export function venueConditionId(market: MarketRecord): string {
  return market.v2?.legacyConditionId ?? market.conditionId;
}
