// GET /v1/ready: 200 while this server should take traffic, 503 naming why not (api/readReadiness.ts), for a load
// balancer's health check. Answered while the state catches up (it then says so) and never cached.
import { ReadyAnswer } from '../schemas/answerSchemas.js';
import { ApiError } from '../apiError.js';
import { readFoldLag } from '../readFoldLag.js';
import { readReadiness } from '../readReadiness.js';
import { defineRoute } from './route.js';

export const readyRoute = defineRoute({
  pattern: '/v1/ready',
  operationId: 'getReady',
  tag: 'Health',
  summary:
    "200 while this server should take traffic; 503 `not ready: ...` naming why not (backfilling, more than config.json's readiness.maxLagBlocks behind the source's finalized head, the source away longer than readiness.maxOutageSeconds): a load balancer's check",
  query: {},
  answer: ReadyAnswer,
  errors: {
    503: "`not ready: ` and the reasons, `; ` between them: the state is backfilling, it is N blocks behind the source's finalized head (at most M), the source has not answered for S s (at most T)",
  },
  cached: false,
  whileCatchingUp: true,
  open: (ctx, serving) => ({ ctx, serving }),
  handle({ ctx, serving }) {
    const lag = readFoldLag(ctx);
    const limits = serving.readiness;
    const { ready, reasons } = readReadiness(lag, serving.catchUp(lag), limits);
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
  },
});
