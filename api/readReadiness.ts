// Whether this server should take traffic: its state is whole (not backfilling), it trails the source's finalized
// head by at most maxLagBlocks, and the source has not been away longer than maxOutageSeconds (loadReadiness.ts).
// `/v1/ready` answers 503 with the reasons otherwise, so a load balancer takes a lagging instance out, and
// `/v1/health` carries the verdict as `ready`.
import type { ReadinessLimits } from './loadReadiness.js';
import type { CatchUp } from './readCatchUp.js';
import type { FoldLag } from './readFoldLag.js';

export interface Readiness {
  ready: boolean;
  /** Why not, each a clause for a person to read; empty when ready. */
  reasons: string[];
}

export function readReadiness(lag: FoldLag, catchUp: CatchUp, limits: ReadinessLimits): Readiness {
  const reasons: string[] = [];
  if (catchUp.mode === 'backfill')
    reasons.push(
      `the state is backfilling (block ${lag.block}${catchUp.target === null ? '' : ` of ${catchUp.target}`})`,
    );
  if (lag.lagBlocks > limits.maxLagBlocks)
    reasons.push(`${lag.lagBlocks} blocks behind the source's finalized head (at most ${limits.maxLagBlocks})`);
  if (lag.outage !== null && lag.outage.seconds > limits.maxOutageSeconds)
    reasons.push(`the source has not answered for ${lag.outage.seconds} s (at most ${limits.maxOutageSeconds})`);
  return { ready: reasons.length === 0, reasons };
}
