// The newest block the chain source has seen (the node's finalized head), and the block through which the fold has
// read the chain (every log up to it folded, though the blocks after the last with venue events hold none), kept in
// the state's meta database so that /v1/health can report how far the fold trails the head: an empty stretch of
// chain is read, not lagged. Written by the RPC ingest between batches, outside the fold's commit: they describe
// the source, not the folded state, and a stale value only misstates the lag.
import { assert } from '../assert.js';
import type { StateStore } from './openStateStore.js';
import { decodeValue, encodeValue } from './stateCodec.js';

const SOURCE_HEAD_KEY = 'sourceHead';
const READ_THROUGH_KEY = 'readThrough';

export interface SourceHead {
  block: number;
  ts: number;
}

export function readSourceHead(store: StateStore): SourceHead | null {
  const bytes = store.dbs.meta.getBinary(SOURCE_HEAD_KEY);
  return bytes ? decodeHead(bytes) : null;
}

/** A head as writeSourceHead or writeReadThrough stored it: a block and a time. */
function decodeHead(bytes: Buffer): SourceHead {
  const head = decodeValue<SourceHead>(bytes);
  assert(typeof head.block === 'number' && typeof head.ts === 'number', 'a source head is a block and a time');
  return head;
}

export async function writeSourceHead(store: StateStore, head: SourceHead): Promise<void> {
  await store.dbs.meta.put(SOURCE_HEAD_KEY, encodeValue({ block: head.block, ts: head.ts }));
}

/** The block the fold has read the chain through, with its time when known (else 0); null before the first read. */
export function readReadThrough(store: StateStore): SourceHead | null {
  const bytes = store.dbs.meta.getBinary(READ_THROUGH_KEY);
  return bytes ? decodeHead(bytes) : null;
}

export async function writeReadThrough(store: StateStore, through: SourceHead): Promise<void> {
  // The RPC ingest records a block it has scanned, past the -1 it starts from.
  assert(Number.isSafeInteger(through.block) && through.block >= 0, 'the chain is read through a block');
  await store.dbs.meta.put(READ_THROUGH_KEY, encodeValue({ block: through.block, ts: through.ts }));
}
