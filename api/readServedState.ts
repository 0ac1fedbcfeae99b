// What every answer reflects: the folded block and its time, read from the state the fold committed.
import { readFoldCursor, type BlockRecord } from '../engine/fold/createFoldRunner.js';
import type { StateStore } from '../engine/state/openStateStore.js';
import { decodeValue } from '../engine/state/stateCodec.js';
import { blockKey } from '../engine/state/stateKeys.js';

export interface ServedBlock {
  block: number;
  /** The block's timestamp: the "now" of every answer (engine/README.md, Pipeline). */
  blockTs: number;
  events: number;
}

export function readServedBlock(store: StateStore): ServedBlock {
  const cursor = readFoldCursor(store);
  if (cursor.block < 0) return { block: 0, blockTs: 0, events: 0 };
  const bytes = store.dbs.blocks.getBinary(blockKey(cursor.block));
  const record = bytes ? decodeValue<BlockRecord>(bytes) : null;
  return { block: cursor.block, blockTs: record?.ts ?? 0, events: cursor.events };
}
