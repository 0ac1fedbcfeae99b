// GET /v1/wallets/{wallet}/closed-positions (api/README.md), also positions?status=closed: positions whose
// exitAt is set, latest exit first (sort=exit) or best settled PnL first (sort=pnl).
import type { Static } from 'typebox';
import type { ClosedPositionsAnswer } from '../schemas/answerSchemas.js';
import type { RouteRequest } from '../query/routeRequest.js';
import { categoryParam, filterPositions } from '../rows/filterPositions.js';
import type { QueryValues } from '../query/queryParams.js';
import { clampedParam, textOf, walletParam } from '../query/readQuery.js';
import { MAX_POSITIONS, readWalletPositions, walletRowOf } from '../rows/readWalletPositions.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';

export function closedPositionsRoute(ctx: RouteContext, request: RouteRequest): Static<typeof ClosedPositionsAnswer> {
  return closedPositionsAnswer(ctx, walletParam(request), request.query);
}

export function closedPositionsAnswer(
  ctx: RouteContext,
  wallet: string,
  query: QueryValues,
): Static<typeof ClosedPositionsAnswer> {
  const limit = clampedParam(query, 'limit', 1, 2500, 100);
  const offset = clampedParam(query, 'offset', 0, Number.MAX_SAFE_INTEGER, 0);
  const category = categoryParam(query);
  const sort = textOf(query, 'sort') ?? 'exit';
  const block = readServedBlock(ctx.state).block;
  const positions = readWalletPositions(ctx, wallet);
  if (positions === null)
    return { wallet, block, tooLarge: true, maxPositions: MAX_POSITIONS, total: 0, offset, rows: [], next: null };
  const closed = filterPositions(positions, category, textOf(query, 'q')).filter((p) => p.micros.exitAt !== null);
  closed.sort(
    (a, b) =>
      (sort === 'exit' ? b.micros.exitAt! - a.micros.exitAt! : b.micros.settledPnl - a.micros.settledPnl) ||
      (a.token < b.token ? -1 : 1),
  );
  const rows = closed
    .slice(offset, offset + limit)
    .map((p) => Object.assign(walletRowOf(ctx, wallet, p), { market: p.view }));
  return {
    wallet,
    block,
    total: closed.length,
    offset,
    rows,
    next: offset + limit < closed.length ? offset + limit : null,
  };
}
