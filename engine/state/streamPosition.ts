// How far a replica (`tally replica`) has read its JetStream stream: written in the same LMDB transaction as each
// commit of the frame it read last, so the state and the position never disagree. The frame is appended to the
// replica's log whole before its first commit; after a crash the log's frames past `lastBlock` are dropped (the
// stream has them) and the rest of this frame is folded from the log before the stream is read from
// `sequence + 1`.
import type { MetaWrite } from '../fold/createFoldRunner.js';
import type { StateStore } from './openStateStore.js';
import { decodeValue, encodeValue } from './stateCodec.js';

const STREAM_POSITION_KEY = 'streamPosition';

export interface StreamPosition {
  /** The stream's name. */
  stream: string;
  /** The stream sequence of the last message of the frame (or of the metadata) read last. */
  sequence: number;
  /** The last block of the last frame read, -1 before any. */
  lastBlock: number;
}

export function streamPositionWrite(position: StreamPosition): MetaWrite {
  return { key: STREAM_POSITION_KEY, value: encodeValue(position) };
}

export function readStreamPosition(store: StateStore): StreamPosition | null {
  const bytes = store.dbs.meta.getBinary(STREAM_POSITION_KEY);
  return bytes ? decodeValue<StreamPosition>(bytes) : null;
}
