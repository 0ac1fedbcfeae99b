// One capture line (replay/README.md, Inputs): JSON text of an eth_getLogs log object, blockTimestamp required. The
// fallback of scanCaptureLine, so odd-but-valid JSON parses and every error message comes from parseLogObject.
import type { RawLog } from '../decode/rawLog.js';
import { parseLogObject } from './parseLogObject.js';

/** A capture line: the log's hex fields as a view (blockHash among them), its block's number and time. */
export interface CaptureLine {
  raw: RawLog;
  block: number;
  blockTs: number;
  removed: boolean;
}

/** Parses and validates one line; throws an Error whose message says what is wrong. */
export function parseCaptureLine(text: string): CaptureLine {
  let object: unknown;
  try {
    object = JSON.parse(text);
  } catch {
    throw new Error('not valid JSON');
  }
  const log = parseLogObject(object, { requireTimestamp: true });
  return { raw: log.raw, block: log.block, blockTs: log.blockTs!, removed: log.removed };
}
