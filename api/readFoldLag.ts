// How far the folded state trails its source: what /v1/health answers and /metrics exports, computed one way. The
// fold has covered the chain through its last block with venue events or, further, through the block the RPC ingest
// read the chain to (blocks after the last event hold none): a node whose chain went quiet is caught up, not behind.
import type { RouteContext } from './routeContext.js';
import { readServedBlock, type ServedBlock } from './readServedState.js';

export interface FoldLag extends ServedBlock {
  /** The source's newest block, never behind the served one. */
  sourceHead: number;
  lagBlocks: number;
  /** Grown by the outage so far while the source's requests fail: its head is unknown and the chain goes on. */
  lagSeconds: number;
  /** The source's outage (engine/state/sourceOutage.ts) with its length so far, null while it answers. */
  outage: { since: number; seconds: number; failedAttempts: number; lastError: string } | null;
}

export function readFoldLag(ctx: Pick<RouteContext, 'state' | 'sourceHead'>): FoldLag {
  const served = readServedBlock(ctx.state);
  const source = ctx.sourceHead();
  const sourceHead = Math.max(source.block, served.block);
  const read = ctx.state.readThrough();
  const covered = Math.min(sourceHead, Math.max(served.block, read?.block ?? 0));
  const coveredTs = Math.max(served.blockTs, read?.ts ?? 0);
  const outage = ctx.state.sourceOutage();
  const seconds = outage ? Math.max(0, Math.floor(Date.now() / 1000) - outage.since) : 0;
  return {
    ...served,
    sourceHead,
    lagBlocks: sourceHead - covered,
    lagSeconds: (source.ts > coveredTs ? source.ts - coveredTs : 0) + seconds,
    outage: outage && {
      since: outage.since,
      seconds,
      failedAttempts: outage.failedAttempts,
      lastError: outage.lastError,
    },
  };
}
