// GET /v1/wallets/{wallet}/positions (spec 4.1): the raw form (no status), the open form (held now, valued at
// the last fill or the payout, biggest value first) and the closed form (as closed-positions).
import type { Static } from 'typebox';
import Type from 'typebox';
import { ClosedPositionsAnswer, OpenPositionsAnswer, RawPositionsAnswer } from '../schemas/answerSchemas.js';
import { comboExtras } from '../rows/comboExtras.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { legValue, outcomeMark } from '../../engine/valuation/marketPrices.js';
import { createPosition } from '../../engine/reducers/position.js';
import { categoryParam, filterPositions, POSITION_PAGE_QUERY } from '../rows/filterPositions.js';
import { choiceParam, textParam, type QueryOf, type QueryParam } from '../query/queryParams.js';
import { CONDITION_LIST_PATTERN, walletParam } from '../query/readQuery.js';
import { readWalletPositions, walletRowOf, type WalletPosition } from '../rows/readWalletPositions.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';
import { positionFields, type PositionFields } from '../rows/positionFields.js';
import { CLOSED_SORT, closedPositionsAnswer } from './closedPositionsRoute.js';
import { MICRO } from '../microUnits.js';
import { defineRoute } from './route.js';
import { MAX_POSITIONS } from '../apiLimits.js';

/** A page parameter the raw form ignores. */
const formsOnly = <P extends QueryParam>(param: P): P => ({
  ...param,
  description: `${param.description}; open and closed forms only`,
});

export const walletPositionsRoute = defineRoute({
  pattern: '/v1/wallets/:wallet/positions',
  operationId: 'getWalletPositions',
  tag: 'Wallets',
  summary:
    "A wallet's positions: raw (no status), open or closed. The raw form answers every position of the wallet " +
    '(both outcomes of each market it touched), narrowed only by `conditions`: it ignores limit, offset, category and q',
  answer: Type.Union([RawPositionsAnswer, OpenPositionsAnswer, ClosedPositionsAnswer]),
  query: {
    status: choiceParam('`open` or `closed`; omitted selects the raw form', ['open', 'closed']),
    limit: formsOnly(POSITION_PAGE_QUERY.limit),
    offset: formsOnly(POSITION_PAGE_QUERY.offset),
    category: formsOnly(POSITION_PAGE_QUERY.category),
    q: formsOnly(POSITION_PAGE_QUERY.q),
    conditions: textParam(
      'raw form: condition ids, comma separated, no spaces',
      CONDITION_LIST_PATTERN,
      'conditions must be condition ids (0x plus 64 hex), comma separated',
    ),
    sort: { ...CLOSED_SORT, description: 'closed form: `exit` (latest exit first, default) or `pnl`' },
  },
  open: (ctx) => ctx,
  handle(ctx, request) {
    const wallet = walletParam(request);
    const { query } = request;
    if (query.status === 'closed') return closedPositionsAnswer(ctx, wallet, query);
    if (query.status === 'open') return openPositionsAnswer(ctx, wallet, query);
    return rawPositionsAnswer(ctx, wallet, query.conditions);
  },
});

function rawPositionsAnswer(
  ctx: RouteContext,
  wallet: string,
  list: string | undefined,
): Static<typeof RawPositionsAnswer> {
  const conditions = list === undefined ? null : new Set(list.toLowerCase().split(','));
  const block = readServedBlock(ctx.state).block;
  const positions = readWalletPositions(ctx, wallet, Number.MAX_SAFE_INTEGER)!;
  // tokenId besides the spec's fields: rows of tokens no market explains (outcomeIndex -1) are told apart by it.
  const rows: Array<PositionFields & { tokenId: string; conditionId: string | null }> = [];
  const held = new Set(positions.map((p) => p.token));
  for (const p of positions) {
    const conditionId = p.market ? publicConditionId(p.market) : null;
    if (conditions && (conditionId === null || !conditions.has(conditionId))) continue;
    rows.push(
      Object.assign(positionFields(wallet, p.outcomeIndex, p.position), {
        tokenId: tokenIdToDecimal(p.token),
        conditionId,
        ...comboExtras(p.market, p.outcomeIndex, p.position, ctx.reads),
      }),
    );
    // Both outcomes of each market: the other one, never touched, as a zero position.
    const other = p.market?.tokens?.[1 - p.outcomeIndex];
    if (other && p.outcomeIndex >= 0 && !held.has(other)) {
      held.add(other);
      const untouched = createPosition();
      rows.push(
        Object.assign(positionFields(wallet, 1 - p.outcomeIndex, untouched), {
          tokenId: tokenIdToDecimal(other),
          conditionId,
          ...comboExtras(p.market, 1 - p.outcomeIndex, untouched, ctx.reads),
        }),
      );
    }
  }
  rows.sort((a, b) => compareNullable(a.conditionId, b.conditionId) || a.outcomeIndex - b.outcomeIndex);
  return { wallet, block, positions: rows };
}

function compareNullable(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/** The open form's mark and value (engine/valuation/marketPrices.ts): null for a token that never traded. */
function markOf(p: WalletPosition): { mark: number | null; markTs: number | null; valueMicros: number | null } {
  const own = p.market && p.outcomeIndex >= 0 ? outcomeMark(p.market, p.outcomeIndex) : null;
  if (!own) return { mark: null, markTs: null, valueMicros: null };
  return { mark: own.price[0] / own.price[1], markTs: own.ts, valueMicros: legValue(p.position, own.price) };
}

function openPositionsAnswer(
  ctx: RouteContext,
  wallet: string,
  query: QueryOf<typeof POSITION_PAGE_QUERY>,
): Static<typeof OpenPositionsAnswer> {
  const { limit, offset } = query;
  const category = categoryParam(query.category);
  const block = readServedBlock(ctx.state).block;
  // Only positions holding shares can be open or resolved-and-held: the rest are skipped undecoded.
  const positions = readWalletPositions(ctx, wallet, MAX_POSITIONS, true);
  if (positions === null) {
    return { wallet, block, tooLarge: true, maxPositions: MAX_POSITIONS, total: 0, offset, rows: [], next: null };
  }
  // Unresolved and held, plus resolved ones not yet redeemed (spec 3).
  const held = filterPositions(positions, category, query.q).filter(
    (p) => p.micros.open || (p.micros.resolved && p.position.shares > 0),
  );
  const valued = held.map((p) => ({ p, mark: markOf(p) }));
  valued.sort(
    (a, b) => (b.mark.valueMicros ?? -Infinity) - (a.mark.valueMicros ?? -Infinity) || (a.p.token < b.p.token ? -1 : 1),
  );
  const page = valued.slice(offset, offset + limit).map(({ p, mark: { mark, markTs, valueMicros } }) =>
    Object.assign(walletRowOf(ctx, wallet, p), {
      market: p.view,
      mark,
      markTs,
      value: valueMicros === null ? null : valueMicros / MICRO,
      unrealizedPnl: p.micros.resolved || valueMicros === null ? null : (valueMicros - p.position.costBasis) / MICRO,
    }),
  );
  return {
    wallet,
    block,
    tooLarge: false,
    maxPositions: MAX_POSITIONS,
    total: valued.length,
    offset,
    rows: page,
    next: offset + limit < valued.length ? offset + limit : null,
  };
}
