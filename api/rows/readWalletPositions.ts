// A wallet's positions from the state, one range read over its keys, each with its market record, metadata and
// settlement figures (markets and tokens come through the server's cached reads); full rows are built only for
// the rows an answer returns.
import type { Position } from '../../engine/reducers/position.js';
import type { MarketMetadata } from '../../engine/offchain/marketMetadata.js';
import type { MarketRecord } from '../../engine/state/marketRecords.js';
import type { MarketView } from '../marketView.js';
import type { RouteContext } from '../routeContext.js';
import { settlement, type PositionSettlement } from '../../engine/valuation/positionSettlement.js';
import { walletRow, type WalletRow } from './walletRow.js';
import { comboExtras } from './comboExtras.js';
import { MAX_POSITIONS } from '../apiLimits.js';

export interface WalletPosition {
  token: string;
  position: Position;
  market: MarketRecord | null;
  metadata: MarketMetadata | null;
  view: MarketView | null;
  outcomeIndex: number;
  micros: PositionSettlement;
}

export function walletRowOf(ctx: RouteContext, wallet: string, p: WalletPosition): WalletRow {
  const extras = comboExtras(p.market, p.outcomeIndex, p.position, ctx.reads);
  return walletRow(wallet, p.token, p.position, p.market, p.outcomeIndex, p.micros, extras);
}

/**
 * The wallet's positions, or null when it has more than `limit` of them (held or not); with `held`, only those
 * holding shares (the open form's: the rest are never decoded).
 */
export function readWalletPositions(
  ctx: RouteContext,
  wallet: string,
  limit = MAX_POSITIONS,
  held = false,
): WalletPosition[] | null {
  const positions = ctx.state.walletPositions(wallet, held, limit);
  if (positions === null) return null;
  const result: WalletPosition[] = [];
  for (const { token, position } of positions) {
    const tokenRecord = ctx.reads.token(token);
    const entry = tokenRecord ? ctx.reads.market(tokenRecord.conditionId) : null;
    const outcomeIndex = tokenRecord ? tokenRecord.outcomeIndex : -1;
    const market = entry ? entry.market : null;
    result.push({
      token,
      position,
      market,
      metadata: entry ? entry.metadata : null,
      view: entry ? entry.view : null,
      outcomeIndex,
      micros: settlement(position, market, outcomeIndex),
    });
  }
  return result;
}
