// How far the folded state trails its source: what /v1/health answers and /metrics exports, computed one way.
import type { RouteContext } from './routeContext.js';
import { readServedBlock, type ServedBlock } from './readServedState.js';

export interface FoldLag extends ServedBlock {
  /** The source's newest block, never behind the served one. */
  sourceHead: number;
  lagBlocks: number;
  lagSeconds: number;
}

export function readFoldLag(ctx: Pick<RouteContext, 'state' | 'sourceHead'>): FoldLag {
  const served = readServedBlock(ctx.state);
  const source = ctx.sourceHead();
  const sourceHead = Math.max(source.block, served.block);
  return {
    ...served,
    sourceHead,
    lagBlocks: sourceHead - served.block,
    lagSeconds: source.ts > served.blockTs ? source.ts - served.blockTs : 0,
  };
}
