// A RouteContext over opened stores: what a serving thread and its heavy-work thread each read through.
import type { DataPaths } from '../engine/dataDir.js';
import type { OffchainStore } from '../engine/offchain/openOffchainStore.js';
import type { StateStore } from '../engine/state/openStateStore.js';
import { createStateReader, type StateReader } from '../engine/state/stateReader.js';
import { readServedBlock } from './readServedState.js';
import type { RouteContext } from './routeContext.js';
import { createStateReads } from './stateReads.js';

/** The source's newest block: the RPC ingest records the node's finalized head; otherwise the served block. */
function sourceHeadOf(state: StateReader): { block: number; ts: number } {
  const served = readServedBlock(state);
  const head = state.sourceHead();
  return head && head.block > served.block ? head : { block: served.block, ts: served.blockTs };
}

export function createRouteContext(options: {
  store: StateStore;
  offchain: OffchainStore;
  paths: DataPaths;
  version: string;
}): RouteContext {
  const state = createStateReader(options.store);
  return {
    state,
    offchain: options.offchain,
    paths: options.paths,
    version: options.version,
    sourceHead: () => sourceHeadOf(state),
    reads: createStateReads(state, options.offchain),
  };
}
