// GET /v1/health (api/README.md): whether the server is ready for traffic (readReadiness.ts), the folded block and
// its checksum, the checksum of what every answer is made from (readAnswerInputs.ts), a replica's stream sequence,
// how far the fold trails the source, whether it is backfilling and how long it has left, the source's outage while
// its requests fail, the log's size, the logs of Protocol V2 contracts with topics tally does not know.
import type { Static } from 'typebox';
import { HealthAnswer } from '../schemas/answerSchemas.js';
import { readdirSync } from 'node:fs';
import type { RouteContext } from '../routeContext.js';
import { readAnswerInputs } from '../readAnswerInputs.js';
import { readFoldLag } from '../readFoldLag.js';
import { readReadiness } from '../readReadiness.js';
import { heatMinute } from './eventHeatRoute.js';
import { defineRoute } from './route.js';

/** The log's segment files: counted once per generation (a load balancer polls health many times a second). */
function logSegments(ctx: RouteContext): number {
  try {
    return readdirSync(ctx.paths.log).filter((f) => f.endsWith('.seg')).length;
  } catch {
    return 0;
  }
}

export const healthRoute = defineRoute({
  pattern: '/v1/health',
  operationId: 'getHealth',
  tag: 'Health',
  summary: 'The folded block, the lag behind the source and the log size',
  query: {},
  answer: HealthAnswer,
  cached: false,
  whileCatchingUp: true,
  open: (ctx, serving) => ({ ctx, serving }),
  // Typed here: a literal union (status) widens to string in an answer inferred from the route's other parts.
  handle({ ctx, serving }): Static<typeof HealthAnswer> {
    const lag = readFoldLag(ctx);
    const catchUp = serving.catchUp(lag);
    const limits = serving.readiness;
    const stream = ctx.state.streamPosition();
    // What only the generation moves (the fold, a rollup, a tag run, the off-chain tables) is made once for it; the
    // lag, the source and the catch-up are read on every request.
    const perGeneration = ctx.reads.perGeneration;
    return {
      status:
        lag.lagBlocks > limits.maxLagBlocks || lag.outage !== null || catchUp.mode === 'backfill' ? 'degraded' : 'ok',
      ready: readReadiness(lag, catchUp, limits).ready,
      block: lag.block,
      blockTs: lag.blockTs,
      checksum: ctx.state.cursor().checksum,
      answers: perGeneration(`health.answers.${catchUp.mode}`, () => readAnswerInputs(ctx, catchUp.mode)),
      stream: stream && { name: stream.stream, sequence: stream.sequence },
      sourceHead: lag.sourceHead,
      lagBlocks: lag.lagBlocks,
      lagSeconds: lag.lagSeconds,
      outage: lag.outage,
      log: { events: lag.events, segments: perGeneration('health.segments', () => logSegments(ctx)) },
      fold: {
        mode: catchUp.mode,
        target: catchUp.target,
        blocksPerSecond: Math.round(catchUp.blocksPerSecond * 100) / 100,
        etaSeconds: catchUp.etaSeconds,
      },
      // Logs of the Protocol V2 contracts whose topic tally does not know (upgraded contracts), by topic0.
      unknownTopics: perGeneration('health.unknownTopics', () => ctx.state.unknownTopics()),
      // Heat is counted on demand for the served block's minute: that minute is its rollup (null with no fills kept).
      rollups: perGeneration('health.rollups', () => ({
        leaderboard: ctx.state.board()?.block ?? null,
        tags: ctx.state.latestTagRunNumber(),
        heat: ctx.state.keepsTrades() && lag.block > 0 ? heatMinute(lag.blockTs) : null,
      })),
      version: ctx.version,
    };
  },
});
