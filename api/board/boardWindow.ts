// The window a stats, categories or leaderboard request asks for (spec 4.3): a rolling `period` ending at the
// rollup's block time, the lifetime (`all`, the default), or a custom `from`/`to` (to exclusive, the rollup's time
// when left out), which overrides the period.
import { LIFETIME, type BoardWindow } from '../../engine/rollup/boardRow.js';
import { ApiError } from '../apiError.js';
import { ERROR } from '../errorTexts.js';
import { integerParam, textParam, type QueryOf } from '../query/queryParams.js';

const DAY = 86_400;
const PERIOD_SECONDS: Readonly<Record<string, number>> = {
  '1d': DAY,
  '7d': 7 * DAY,
  '30d': 30 * DAY,
  '90d': 90 * DAY,
  '1y': 365 * DAY,
};

/** Every `period` a request may name, the lifetime first. */
export const BOARD_PERIODS = ['all', ...Object.keys(PERIOD_SECONDS)];

export interface AskedWindow {
  /** The period asked for, `custom` for from/to. */
  period: string;
  from: number;
  to: number;
  /** `board`: the lifetime board row; `settled`: summed from the market results in the window. */
  basis: 'board' | 'settled';
  window: BoardWindow;
}

/** The window's parameters, as the stats, categories and leaderboard routes take them. */
export const WINDOW_QUERY = {
  period: {
    ...textParam(
      "`1d`, `7d`, `30d`, `90d`, `1y`: a rolling window ending at the rollup's block time; `all` (default): the lifetime board row",
      '^(1d|7d|30d|90d|1y|all)$',
      ERROR.badPeriod,
    ),
    ignoredWith: 'from',
  },
  from: integerParam('custom window start, Unix seconds (used instead of period)', { minimum: 0 }),
  to: integerParam("custom window end, Unix seconds, exclusive; the rollup's block time when left out (needs from)", {
    minimum: 0,
  }),
};

/** What the window is read from (a test may leave out what a request would carry as undefined). */
export type WindowQuery = Partial<QueryOf<typeof WINDOW_QUERY>>;

/** True when the window asked for is summed from every wallet's market results (any but the lifetime). */
export function sumsResults(query: WindowQuery): boolean {
  return query.from !== undefined || query.to !== undefined || (query.period ?? 'all') !== 'all';
}

export function askedWindow(query: WindowQuery, asOf: number): AskedWindow {
  const { from, to } = query;
  if (from !== undefined) {
    if (to !== undefined && to <= from) throw new ApiError(400, ERROR.badWindow);
    // A window that reaches the rollup's time ends now: the open book counts (spec 4.3 rule 3).
    const endsNow = to === undefined || to > asOf;
    return {
      period: 'custom',
      from,
      to: to ?? asOf,
      basis: 'settled',
      window: { all: false, from, to: to ?? null, endsNow },
    };
  }
  if (to !== undefined) throw new ApiError(400, ERROR.badPeriod);
  const period = query.period ?? 'all';
  if (period === 'all') return { period, from: 0, to: asOf, basis: 'board', window: LIFETIME };
  const seconds = PERIOD_SECONDS[period];
  if (seconds === undefined) throw new ApiError(400, ERROR.badPeriod);
  return {
    period,
    from: asOf - seconds,
    to: asOf,
    basis: 'settled',
    window: { all: false, from: asOf - seconds, to: null, endsNow: true },
  };
}
