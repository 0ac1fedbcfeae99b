// The newest block the chain source has seen (the node's finalized head), kept in the state's meta database so
// that /v1/health can report how far the fold trails it. Written by the RPC ingest between batches, outside the
// fold's commit: it describes the source, not the folded state, and a stale value only misstates the lag.
import type { StateStore } from './openStateStore.js';
import { decodeValue, encodeValue } from './stateCodec.js';

const SOURCE_HEAD_KEY = 'sourceHead';

export interface SourceHead {
  block: number;
  ts: number;
}

export function readSourceHead(store: StateStore): SourceHead | null {
  const bytes = store.dbs.meta.getBinary(SOURCE_HEAD_KEY);
  return bytes ? decodeValue<SourceHead>(bytes) : null;
}

export async function writeSourceHead(store: StateStore, head: SourceHead): Promise<void> {
  await store.dbs.meta.put(SOURCE_HEAD_KEY, encodeValue({ block: head.block, ts: head.ts }));
}
