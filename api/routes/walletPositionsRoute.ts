// GET /v1/wallets/{wallet}/positions (spec 4.1): the raw form (no status), the open form (held now, valued at
// the last fill or the payout, biggest value first) and the closed form (as closed-positions).
import type { Static } from 'typebox';
import type { ClosedPositionsAnswer, OpenPositionsAnswer, RawPositionsAnswer } from '../schemas/answerSchemas.js';
import { comboExtras } from '../rows/comboExtras.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { legValue, outcomeMark } from '../../engine/valuation/marketPrices.js';
import { createPosition } from '../../engine/reducers/position.js';
import type { RouteRequest } from '../query/routeRequest.js';
import { categoryParam, filterPositions } from '../rows/filterPositions.js';
import type { QueryValues } from '../query/queryParams.js';
import { clampedParam, textOf, walletParam } from '../query/readQuery.js';
import { MAX_POSITIONS, readWalletPositions, walletRowOf, type WalletPosition } from '../rows/readWalletPositions.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';
import { positionFields, type PositionFields } from '../rows/positionFields.js';
import { closedPositionsAnswer } from './closedPositionsRoute.js';
import { MICRO } from '../microUnits.js';

export function walletPositionsRoute(
  ctx: RouteContext,
  request: RouteRequest,
): Static<typeof RawPositionsAnswer> | Static<typeof OpenPositionsAnswer> | Static<typeof ClosedPositionsAnswer> {
  const wallet = walletParam(request);
  const status = textOf(request.query, 'status');
  if (status === 'closed') return closedPositionsAnswer(ctx, wallet, request.query);
  if (status === 'open') return openPositionsAnswer(ctx, wallet, request.query);
  return rawPositionsAnswer(ctx, wallet, request.query);
}

function rawPositionsAnswer(ctx: RouteContext, wallet: string, query: QueryValues): Static<typeof RawPositionsAnswer> {
  const list = textOf(query, 'conditions');
  const conditions = list === null ? null : new Set(list.toLowerCase().split(','));
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
  query: QueryValues,
): Static<typeof OpenPositionsAnswer> {
  const limit = clampedParam(query, 'limit', 1, 2500, 100);
  const offset = clampedParam(query, 'offset', 0, Number.MAX_SAFE_INTEGER, 0);
  const category = categoryParam(query);
  const text = textOf(query, 'q');
  const block = readServedBlock(ctx.state).block;
  // Only positions holding shares can be open or resolved-and-held: the rest are skipped undecoded.
  const positions = readWalletPositions(ctx, wallet, MAX_POSITIONS, true);
  if (positions === null) {
    return { wallet, block, tooLarge: true, maxPositions: MAX_POSITIONS, total: 0, offset, rows: [], next: null };
  }
  // Unresolved and held, plus resolved ones not yet redeemed (spec 3).
  const held = filterPositions(positions, category, text).filter(
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
