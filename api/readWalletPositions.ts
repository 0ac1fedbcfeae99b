// A wallet's positions from the state, one range read over its keys, each with its market record, metadata and
// settled WalletRow. Per-request caches keep each market read once.
import type { Position } from '../engine/reducers/position.js';
import type { MarketMetadata } from '../engine/offchain/marketMetadata.js';
import type { MarketRecord, TokenRecord } from '../engine/state/marketRecords.js';
import { decodePosition, decodeValue } from '../engine/state/stateCodec.js';
import { marketView, readMarketMetadata, type MarketView } from './marketView.js';
import type { RouteContext } from './routeContext.js';
import { walletRow, type WalletRow, type WalletRowMicros } from './rows/walletRow.js';

/** Above this many positions a wallet's open and closed forms answer tooLarge (spec 4.1). */
export const MAX_POSITIONS = 50_000;

export interface WalletPosition {
  token: string;
  position: Position;
  market: MarketRecord | null;
  metadata: MarketMetadata | null;
  view: MarketView | null;
  outcomeIndex: number;
  row: WalletRow;
  micros: WalletRowMicros;
}

/** The wallet's positions, or null when it has more than `limit` of them. */
export function readWalletPositions(ctx: RouteContext, wallet: string, limit = MAX_POSITIONS): WalletPosition[] | null {
  const markets = new Map<string, { market: MarketRecord | null; metadata: MarketMetadata | null; view: MarketView | null }>();
  const result: WalletPosition[] = [];
  for (const { key, value } of ctx.store.dbs.positions.getRange({ start: wallet, end: wallet + 'g' })) {
    if (result.length === limit) return null;
    const token = String(key).slice(42);
    const tokenBytes = ctx.store.dbs.tokens.getBinary(token);
    const tokenRecord = tokenBytes ? decodeValue<TokenRecord>(tokenBytes) : null;
    let entry = tokenRecord ? markets.get(tokenRecord.conditionId) : undefined;
    if (tokenRecord && !entry) {
      const marketBytes = ctx.store.dbs.markets.getBinary(tokenRecord.conditionId);
      const market = marketBytes ? decodeValue<MarketRecord>(marketBytes) : null;
      const metadata = readMarketMetadata(ctx.offchain, tokenRecord.conditionId);
      entry = { market, metadata, view: marketView(metadata, market?.negRisk ?? false) };
      markets.set(tokenRecord.conditionId, entry);
    }
    const position = decodePosition(value);
    const outcomeIndex = tokenRecord ? tokenRecord.outcomeIndex : -1;
    const { row, micros } = walletRow(wallet, token, position, entry?.market ?? null, outcomeIndex);
    result.push({
      token, position, market: entry?.market ?? null, metadata: entry?.metadata ?? null, view: entry?.view ?? null,
      outcomeIndex, row, micros,
    });
  }
  return result;
}
