// The routes that read fills answer 503 `trades are off` (spec 7, docs/design.md 5) when the state was folded with
// the trade store off (config.json `"trades": false`): it holds no fills to answer from.
import { ApiError } from './apiError.js';
import { ERROR } from './errorTexts.js';
import type { RouteContext } from './routeContext.js';

export function requireTrades(ctx: RouteContext): void {
  if (!ctx.state.keepsTrades()) throw new ApiError(503, ERROR.tradesOff);
}
