// One eth_getLogs log object (replay/README.md, Inputs), as a capture line holds it or a node answers it. Numbers may
// be 0x hex strings, as nodes return them, or JSON integers. A capture line must carry blockTimestamp; a node
// may leave it out (many do), and the RPC source then takes it from the block header; a capture line without it is
// told how to get one. Anything else is malformed: an Error whose message names the field, never a guess.
import { createRawLog, hexField, type RawLog } from '../decode/rawLog.js';

export interface LogObject {
  raw: RawLog;
  block: number;
  blockHash: string;
  /** null when the object has no blockTimestamp (allowed only when not required). */
  blockTs: number | null;
  removed: boolean;
}

const HEX_WORD = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;

/** A capture made from a node's eth_getLogs answers as they are lacks block times; say how to get them. */
const MISSING_TIMESTAMP =
  'blockTimestamp is missing (many nodes leave it out of eth_getLogs): write the capture with ' +
  'tally capture --rpc URL --from-block A --to-block B --out FILE, which takes it from the block headers, or ingest ' +
  'from the node with tally ingest --rpc URL';

function quantity(object: Record<string, unknown>, field: string): number {
  const value = object[field];
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,13}$/.test(value)) return parseInt(value, 16);
  throw new Error(
    `${field} must be a 0x hex quantity or a non-negative integer, got ${JSON.stringify(value)?.slice(0, 40)}`,
  );
}

function matching(object: Record<string, unknown>, field: string, pattern: RegExp, what: string): string {
  const value = object[field];
  if (typeof value !== 'string' || !pattern.test(value))
    throw new Error(`${field} must be ${what}, got ${JSON.stringify(value)?.slice(0, 80)}`);
  return value.toLowerCase();
}

export function parseLogObject(value: unknown, options: { requireTimestamp: boolean }): LogObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object');
  const log = value as Record<string, unknown>;
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
    blockHash: matching(log, 'blockHash', HEX_WORD, 'a 32-byte 0x hash'),
  });
  const missingTs = log.blockTimestamp === undefined || log.blockTimestamp === null;
  if (missingTs && options.requireTimestamp) throw new Error(MISSING_TIMESTAMP);
  return {
    raw,
    block: quantity(log, 'blockNumber'),
    blockHash: hexField(raw, raw.blockHashAt, 64),
    blockTs: missingTs && !options.requireTimestamp ? null : quantity(log, 'blockTimestamp'),
    removed,
  };
}
