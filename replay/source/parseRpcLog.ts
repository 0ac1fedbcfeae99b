// One log of a node's eth_getLogs answer, validated like a capture line (DESIGN.md section 7) except that
// blockTimestamp is optional: many nodes do not return it, and the source then takes it from the block header.
// A malformed log is the node's fault, not the input's: the caller turns the message into a fatal RPC error.
import { createRawLog, type RawLog } from '../decode/rawLog.js';

export interface RpcLog {
  raw: RawLog;
  block: number;
  blockHash: string;
  /** null when the node left blockTimestamp out. */
  blockTs: number | null;
  logIndex: number;
  removed: boolean;
}

const HEX_WORD = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
const QUANTITY = /^0x[0-9a-fA-F]{1,13}$/;

function quantity(log: Record<string, unknown>, field: string): number {
  const value = log[field];
  if (typeof value !== 'string' || !QUANTITY.test(value)) throw new Error(`${field} must be a 0x hex quantity, got ${JSON.stringify(value)?.slice(0, 40)}`);
  return parseInt(value, 16);
}

function matching(log: Record<string, unknown>, field: string, pattern: RegExp, what: string): string {
  const value = log[field];
  if (typeof value !== 'string' || !pattern.test(value)) throw new Error(`${field} must be ${what}, got ${JSON.stringify(value)?.slice(0, 80)}`);
  return value;
}

/** Throws an Error naming the bad field. */
export function parseRpcLog(value: unknown): RpcLog {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('a log is not a JSON object');
  const log = value as Record<string, unknown>;
  const topics = log.topics;
  if (!Array.isArray(topics) || topics.length > 4 || !topics.every((t) => typeof t === 'string' && HEX_WORD.test(t))) {
    throw new Error('topics must be an array of at most four 32-byte 0x hex words');
  }
  const removed = log.removed ?? false;
  if (typeof removed !== 'boolean') throw new Error('removed must be a boolean');
  const logIndex = quantity(log, 'logIndex');
  const raw = createRawLog({
    address: matching(log, 'address', ADDRESS, 'a 0x address'),
    topics: topics as string[],
    data: matching(log, 'data', HEX_DATA, '0x hex bytes'),
    tx: matching(log, 'transactionHash', HEX_WORD, 'a 32-byte 0x hash'),
    txIndex: quantity(log, 'transactionIndex'),
    logIndex,
  });
  return {
    raw,
    block: quantity(log, 'blockNumber'),
    blockHash: matching(log, 'blockHash', HEX_WORD, 'a 32-byte 0x hash').toLowerCase(),
    blockTs: log.blockTimestamp === undefined || log.blockTimestamp === null ? null : quantity(log, 'blockTimestamp'),
    logIndex,
    removed,
  };
}
