// One log of a node's eth_getLogs answer: validated like a capture line, blockTimestamp optional. A malformed log
// is the node's fault, not the input's: the caller turns the message into a fatal RPC error.
import type { RawLog } from '../decode/rawLog.js';
import { parseLogObject } from './parseLogObject.js';

export interface RpcLog {
  raw: RawLog;
  block: number;
  blockHash: string;
  /** null when the node left blockTimestamp out. */
  blockTs: number | null;
  logIndex: number;
  removed: boolean;
}

/** Throws an Error naming the bad field. */
export function parseRpcLog(value: unknown): RpcLog {
  const log = parseLogObject(value, { requireTimestamp: false });
  return {
    raw: log.raw,
    block: log.block,
    blockHash: log.blockHash,
    blockTs: log.blockTs,
    logIndex: log.raw.logIndex,
    removed: log.removed,
  };
}
