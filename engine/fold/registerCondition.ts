// Market registry updates that create or complete a condition: its token ids come from the CTF position-id
// computation (USDC.e, or the adapter's wrapped collateral for neg-risk conditions), so V2 fills and
// partial captures work without TokenRegistered.
import { outcomeTokenIds } from '../chain/positionIds.js';
import { createMarketRecord, type MarketRecord } from '../state/marketRecords.js';
import type { DeriveContext } from './deriveContext.js';
import { assert } from '../assert.js';

/** The condition's record, created (with tokens for `collateral`) if the registry lacks it. */
export function ensureCondition(ctx: DeriveContext, conditionId: string, collateral: string | null): MarketRecord {
  const { registry, addresses } = ctx;
  let market = registry.market(conditionId);
  if (market && market.tokens) {
    // The registry answers the record kept under the id asked for; a stored condition's tokens are its two outcomes.
    assert(market.conditionId === conditionId, 'the registry answers the condition asked for');
    assert(market.tokens.length === 2, "a condition's tokens are its two outcomes");
    return market;
  }
  if (!market) market = createMarketRecord(conditionId);
  const chosen = collateral ?? (market.negRisk ? addresses.wrappedCollateral : addresses.usdc);
  market.negRisk = chosen === addresses.wrappedCollateral;
  setTokens(ctx, market, outcomeTokenIds(conditionId, chosen));
  assert(market.conditionId === conditionId, 'the registry answers the condition asked for');
  return market;
}

export function setTokens(ctx: DeriveContext, market: MarketRecord, tokens: string[]): void {
  // Every condition the fold registers is binary: the CTF's two index sets, or a V2 condition's YES and NO.
  assert(tokens.length === 2, "a condition's tokens are its two outcomes");
  // Token ids are 64 hex without 0x (positionIds, v2PositionIds), the form the log and the state key them by.
  assert(tokens[0]!.length === 64 && tokens[1]!.length === 64, 'a token id is 32 bytes of hex');
  market.tokens = tokens;
  for (let i = 0; i < tokens.length; i++)
    ctx.registry.putToken(tokens[i]!, { conditionId: market.conditionId, outcomeIndex: i });
  ctx.registry.putMarket(market);
}
