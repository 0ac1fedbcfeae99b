// How far a replica (`tally replica`) has read its JetStream stream: written in the same LMDB transaction as each
// commit of the frame it read last, so the state and the position never disagree. The frame is appended to the
// replica's log whole before its first commit; after a crash the log's frames past `lastBlock` are dropped (the
// stream has them) and the rest of this frame is folded from the log before the stream is read from
// `sequence + 1`. After an off-chain batch or a tag run, applied once every frame before it is committed, the position
// moves to it alone (writeStreamPosition), so health's sequence names the last message the replica holds.
import { assert } from '../assert.js';
import type { MetaWrite } from './stateWrite.js';
import type { StateStore } from './openStateStore.js';
import { decodeValue, encodeValue } from './stateCodec.js';

const STREAM_POSITION_KEY = 'streamPosition';

export interface StreamPosition {
  /** The stream's name. */
  stream: string;
  /** The stream sequence of the last message of the frame (or of the off-chain batch or tag run) read last. */
  sequence: number;
  /** The last block of the last frame read, -1 before any. */
  lastBlock: number;
}

export function streamPositionWrite(position: StreamPosition): MetaWrite {
  return { key: STREAM_POSITION_KEY, value: encodeValue(position) };
}

export function readStreamPosition(store: StateStore): StreamPosition | null {
  const bytes = store.dbs.meta.getBinary(STREAM_POSITION_KEY);
  if (!bytes) return null;
  const position = decodeValue<StreamPosition>(bytes);
  // As streamPositionWrite encoded it.
  assert(
    typeof position.stream === 'string' &&
      typeof position.sequence === 'number' &&
      typeof position.lastBlock === 'number',
    'a stream position is a stream, a sequence and a block',
  );
  return position;
}

/** Moves the position past a message that is no frame; every frame before it must be committed already. */
export async function writeStreamPosition(store: StateStore, position: StreamPosition): Promise<void> {
  const { key, value } = streamPositionWrite(position);
  await store.dbs.meta.put(key, value);
}
