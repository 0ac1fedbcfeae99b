// One capture line (DESIGN.md section 7): a JSON-RPC eth_getLogs log object. Numbers may be 0x hex strings, as
// nodes return them, or JSON integers. Anything else is a malformed line: an error message, never a guess.
import { createRawLog, type RawLog } from '../decode/rawLog.js';

export interface CaptureLog extends RawLog {
  block: number;
  blockHash: string;
  blockTs: number;
  removed: boolean;
}

const HEX_WORD = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;

function quantity(object: Record<string, unknown>, field: string): number {
  const value = object[field];
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,13}$/.test(value)) return parseInt(value, 16);
  throw new Error(`${field} must be a 0x hex quantity or a non-negative integer, got ${JSON.stringify(value)?.slice(0, 40)}`);
}

function matching(object: Record<string, unknown>, field: string, pattern: RegExp, what: string): string {
  const value = object[field];
  if (typeof value !== 'string' || !pattern.test(value)) throw new Error(`${field} must be ${what}, got ${JSON.stringify(value)?.slice(0, 80)}`);
  return value.toLowerCase();
}

/** Parses and validates one line; throws an Error whose message says what is wrong. */
export function parseCaptureLine(text: string): CaptureLog {
  let object: unknown;
  try {
    object = JSON.parse(text);
  } catch {
    throw new Error('not valid JSON');
  }
  if (typeof object !== 'object' || object === null || Array.isArray(object)) throw new Error('not a JSON object');
  const log = object as Record<string, unknown>;
  const topics = log.topics;
  if (!Array.isArray(topics) || topics.length > 4 || !topics.every((t) => typeof t === 'string' && HEX_WORD.test(t))) {
    throw new Error('topics must be an array of at most four 32-byte 0x hex words');
  }
  const removed = log.removed ?? false;
  if (typeof removed !== 'boolean') throw new Error('removed must be a boolean');
  const raw = createRawLog({
    address: matching(log, 'address', ADDRESS, 'a 0x address'),
    topics,
    data: matching(log, 'data', HEX_DATA, '0x hex bytes'),
    tx: matching(log, 'transactionHash', HEX_WORD, 'a 32-byte 0x hash'),
    txIndex: quantity(log, 'transactionIndex'),
    logIndex: quantity(log, 'logIndex'),
  });
  return {
    ...raw,
    block: quantity(log, 'blockNumber'),
    blockHash: matching(log, 'blockHash', HEX_WORD, 'a 32-byte 0x hash'),
    blockTs: quantity(log, 'blockTimestamp'),
    removed,
  };
}
