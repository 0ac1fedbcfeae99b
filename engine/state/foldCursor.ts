// How far the state is folded (the cursor, written in each commit) and what each folded block left behind (its
// record): the two things every reader of the state starts from.
import type { IdCounts } from '../log/idDictionary.js';
import { GENESIS_CHECKSUM } from './blockChecksum.js';
import type { StateStore } from './openStateStore.js';
import { decodeValue } from './stateCodec.js';

export interface FoldCursor {
  /** Last folded block, -1 before any. */
  block: number;
  checksum: string;
  events: number;
  blocks: number;
  /** Fills in the fills table: the next fill's number in chain order. */
  fills: number;
  /** The state's ids of each space (createStateIds): the next id of each. */
  ids: IdCounts;
}

export interface BlockRecord { block: number; ts: number; hash: string; checksum: string; events: number }

export const CURSOR_KEY = 'cursor';
export const EMPTY_CURSOR: FoldCursor = { block: -1, checksum: GENESIS_CHECKSUM, events: 0, blocks: 0, fills: 0, ids: [0, 0, 0] };

export function readFoldCursor(store: StateStore): FoldCursor {
  const bytes = store.dbs.meta.getBinary(CURSOR_KEY);
  return bytes ? decodeValue<FoldCursor>(bytes) : { ...EMPTY_CURSOR, ids: [0, 0, 0] };
}
