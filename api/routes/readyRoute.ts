// GET /v1/ready: 200 while this server should take traffic, 503 naming why not (api/readReadiness.ts), for a load
// balancer's health check. Answered while the state catches up (it then says so) and never cached.
import type { Static } from 'typebox';
import type { ReadyAnswer } from '../schemas/answerSchemas.js';
import { ApiError } from '../apiError.js';
import type { ReadinessLimits } from '../loadReadiness.js';
import type { CatchUp } from '../readCatchUp.js';
import type { FoldLag } from '../readFoldLag.js';
import { readReadiness } from '../readReadiness.js';

export function readyRoute(lag: FoldLag, catchUp: CatchUp, limits: ReadinessLimits): Static<typeof ReadyAnswer> {
  const { ready, reasons } = readReadiness(lag, catchUp, limits);
  if (!ready) throw new ApiError(503, `not ready: ${reasons.join('; ')}`);
  return {
    ready,
    block: lag.block,
    sourceHead: lag.sourceHead,
    lagBlocks: lag.lagBlocks,
    lagSeconds: lag.lagSeconds,
    maxLagBlocks: limits.maxLagBlocks,
    maxOutageSeconds: limits.maxOutageSeconds,
  };
}
