// Market registry updates that create or complete a condition: its token ids come from the CTF position-id
// computation (USDC.e, or the adapter's wrapped collateral for neg-risk conditions), so V2 fills and
// partial captures work without TokenRegistered.
import { outcomeTokenIds } from '../chain/positionIds.js';
import { createMarketRecord, type MarketRecord } from '../state/marketRecords.js';
import type { DeriveContext } from './deriveContext.js';

/** The condition's record, created (with tokens for `collateral`) if the registry lacks it. */
export function ensureCondition(ctx: DeriveContext, conditionId: string, collateral: string | null): MarketRecord {
  const { registry, addresses } = ctx;
  let market = registry.market(conditionId);
  if (market && market.tokens) return market;
  if (!market) market = createMarketRecord(conditionId);
  const chosen = collateral ?? (market.negRisk ? addresses.wrappedCollateral : addresses.usdc);
  market.negRisk = chosen === addresses.wrappedCollateral;
  setTokens(ctx, market, outcomeTokenIds(conditionId, chosen));
  return market;
}

export function setTokens(ctx: DeriveContext, market: MarketRecord, tokens: string[]): void {
  market.tokens = tokens;
  for (let i = 0; i < tokens.length; i++)
    ctx.registry.putToken(tokens[i]!, { conditionId: market.conditionId, outcomeIndex: i });
  ctx.registry.putMarket(market);
}
