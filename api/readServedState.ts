// What every answer reflects: the folded block and its time, read from the state the fold committed.
import type { StateReader } from '../engine/state/stateReader.js';

export interface ServedBlock {
  block: number;
  /** The block's timestamp: the "now" of every answer (engine/README.md, Pipeline). */
  blockTs: number;
  events: number;
}

export function readServedBlock(state: StateReader): ServedBlock {
  const cursor = state.cursor();
  if (cursor.block < 0) return { block: 0, blockTs: 0, events: 0 };
  return { block: cursor.block, blockTs: state.block(cursor.block)?.ts ?? 0, events: cursor.events };
}
