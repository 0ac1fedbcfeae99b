// Reads a capture file into batches of whole blocks of decoded events (DESIGN.md section 7). A malformed,
// out-of-order or torn line throws an InputError naming the file and line before its batch is yielded, so
// nothing of that batch reaches the log. Blocks at or below `afterBlock` are already in the log: skipped
// (re-ingesting adds nothing), but their hashes must match the ones the log recorded.
import type { BlockEvents, ChainEvent } from '../../engine/chain/chainEvent.js';
import type { LogDecoder } from '../decode/decodeLog.js';
import { InputError } from './inputError.js';
import { parseCaptureLine } from './parseCaptureLine.js';
import { lineText, readLines } from './readLines.js';
import { scanCaptureLine } from './scanCaptureLine.js';

export interface CaptureBatch {
  blocks: BlockEvents[];
  /** Chain logs read for this batch (venue logs or not). */
  logs: number;
  lastLine: number;
}

export interface CaptureProgress {
  lines: number;
  existing: number;
  removed: number;
}

/**
 * Logs per batch. Measured on the 200k-fill demo (2 cores): 100k-log batches folded in 11.3 s at 1,455 MiB peak
 * RSS, 50k in 9.9 s at 1,226 MiB, 25k in 10.2-11.0 s at about 1,020 MiB, 10k in 11.8 s at 810 MiB: the heaps
 * scale with the batch, and below 25k the per-batch costs start to show.
 */
export const CAPTURE_BATCH_LOGS = 25_000;

export function* readCaptureBatches(options: {
  path: string;
  decoder: LogDecoder;
  afterBlock: number;
  knownHash?: (block: number) => string | undefined;
  batchLogs?: number;
  progress?: CaptureProgress;
}): Generator<CaptureBatch> {
  const { path, decoder, afterBlock } = options;
  const batchLogs = options.batchLogs ?? CAPTURE_BATCH_LOGS;
  const progress = options.progress ?? { lines: 0, existing: 0, removed: 0 };
  let blocks: BlockEvents[] = [];
  let logs = 0;
  let current: BlockEvents | null = null;
  let lastBlock = -1;
  let lastLogIndex = -1;
  let lastTs = 0;
  let lastLine = 0;

  for (const line of readLines(path)) {
    if (isBlank(line.buffer, line.start, line.end)) continue;
    let log = scanCaptureLine(line.buffer, line.start, line.end);
    if (log === null) try {
      log = parseCaptureLine(lineText(line));
    } catch (error) {
      const torn = !line.terminated ? ' (the last line is cut short)' : '';
      throw new InputError(path, line.number, `malformed log line: ${(error as Error).message}${torn}`);
    }
    progress.lines++;
    if (log.block < lastBlock || (log.block === lastBlock && log.logIndex <= lastLogIndex)) {
      throw new InputError(path, line.number,
        `out of order: block ${log.block} log ${log.logIndex} comes after block ${lastBlock} log ${lastLogIndex}`);
    }
    if (log.block > lastBlock && lastBlock >= 0 && log.blockTs < lastTs) {
      throw new InputError(path, line.number, `block ${log.block} has timestamp ${log.blockTs}, before block ${lastBlock}'s ${lastTs}`);
    }
    lastBlock = log.block;
    lastLogIndex = log.logIndex;
    lastTs = log.blockTs;
    if (log.block <= afterBlock) {
      const known = options.knownHash?.(log.block);
      if (known !== undefined && known !== log.blockHash) {
        throw new InputError(path, line.number,
          `block ${log.block} has hash ${log.blockHash} but the log holds ${known}: a reorganisation below the finalized block; rewind first`);
      }
      progress.existing++;
      continue;
    }
    if (log.removed) {
      progress.removed++;
      continue;
    }
    if (current && current.block === log.block) {
      if (current.hash !== log.blockHash || current.ts !== log.blockTs) {
        throw new InputError(path, line.number, `block ${log.block}: blockHash or blockTimestamp differs from earlier lines of the same block`);
      }
    } else {
      if (current) {
        if (current.events.length > 0) blocks.push(current);
        if (logs >= batchLogs) {
          yield { blocks, logs, lastLine };
          blocks = [];
          logs = 0;
        }
      }
      current = { block: log.block, ts: log.blockTs, hash: log.blockHash, events: [] };
    }
    logs++;
    lastLine = line.number;
    const event: ChainEvent | null = decoder.decode(log);
    if (event) current.events.push(event);
  }
  if (current && current.events.length > 0) blocks.push(current);
  if (blocks.length > 0 || logs > 0) yield { blocks, logs, lastLine };
}

function isBlank(buffer: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buffer[i];
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}
