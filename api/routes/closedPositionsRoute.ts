// GET /v1/wallets/{wallet}/closed-positions (DESIGN.md section 5), also positions?status=closed: positions whose
// exitAt is set, latest exit first (sort=exit) or best settled PnL first (sort=pnl).
import { ApiError } from '../apiError.js';
import type { RouteRequest } from '../createServer.js';
import { categoryParam, filterPositions } from '../filterPositions.js';
import { clampedParam, offsetParam, walletParam } from '../query/readQuery.js';
import { MAX_POSITIONS, readWalletPositions } from '../readWalletPositions.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';

export function closedPositionsRoute(ctx: RouteContext, request: RouteRequest): unknown {
  return closedPositionsAnswer(ctx, walletParam(request), request.query);
}

export function closedPositionsAnswer(ctx: RouteContext, wallet: string, query: URLSearchParams): unknown {
  const limit = clampedParam(query, 'limit', 1, 2500, 100);
  const offset = offsetParam(query);
  const category = categoryParam(query);
  const sort = query.get('sort') ?? 'exit';
  if (sort !== 'exit' && sort !== 'pnl') throw new ApiError(400, 'sort must be exit or pnl');
  const block = readServedBlock(ctx.store).block;
  const positions = readWalletPositions(ctx, wallet);
  if (positions === null) return { wallet, block, tooLarge: true, maxPositions: MAX_POSITIONS, total: 0, offset, rows: [], next: null };
  const closed = filterPositions(positions, category, query.get('q')).filter((p) => p.row.exitAt !== null);
  closed.sort((a, b) =>
    (sort === 'exit' ? b.row.exitAt! - a.row.exitAt! : b.micros.settledPnl - a.micros.settledPnl) || (a.row.tokenId < b.row.tokenId ? -1 : 1));
  const rows = closed.slice(offset, offset + limit).map((p) => Object.assign(p.row, { market: p.view }));
  return { wallet, block, total: closed.length, offset, rows, next: offset + limit < closed.length ? offset + limit : null };
}
