// GET /v1/wallets/{wallet}/closed-positions (api/README.md), also positions?status=closed: positions whose
// exitAt is set, latest exit first (sort=exit) or best settled PnL first (sort=pnl).
import type { Static } from 'typebox';
import { ClosedPositionsAnswer } from '../schemas/answerSchemas.js';
import { categoryParam, filterPositions, POSITION_PAGE_QUERY } from '../rows/filterPositions.js';
import { choiceParam, type QueryOf } from '../query/queryParams.js';
import { walletParam } from '../query/readQuery.js';
import { readWalletPositions, walletRowOf } from '../rows/readWalletPositions.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';
import { defineRoute } from './route.js';
import { MAX_POSITIONS } from '../apiLimits.js';

export const CLOSED_SORT = choiceParam('`exit` (latest exit first, default) or `pnl`', ['exit', 'pnl'], 'exit');

const query = { ...POSITION_PAGE_QUERY, sort: CLOSED_SORT };

export const closedPositionsRoute = defineRoute({
  pattern: '/v1/wallets/:wallet/closed-positions',
  operationId: 'getClosedPositions',
  tag: 'Wallets',
  summary: "A wallet's closed positions",
  query,
  answer: ClosedPositionsAnswer,
  open: (ctx) => ctx,
  handle: (ctx, request) => closedPositionsAnswer(ctx, walletParam(request), request.query),
});

export function closedPositionsAnswer(
  ctx: RouteContext,
  wallet: string,
  query: QueryOf<typeof POSITION_PAGE_QUERY> & { sort: 'exit' | 'pnl' },
): Static<typeof ClosedPositionsAnswer> {
  const { limit, offset, sort } = query;
  const category = categoryParam(query.category);
  const block = readServedBlock(ctx.state).block;
  const positions = readWalletPositions(ctx, wallet);
  if (positions === null)
    return { wallet, block, tooLarge: true, maxPositions: MAX_POSITIONS, total: 0, offset, rows: [], next: null };
  const closed = filterPositions(positions, category, query.q).filter((p) => p.micros.exitAt !== null);
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
