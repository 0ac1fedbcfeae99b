// Reads a capture file into batches of whole blocks of decoded events (replay/README.md, Inputs). A malformed,
// out-of-order or torn line throws an InputError naming the file and line before its batch is yielded, so
// nothing of that batch reaches the log. Blocks at or below `afterBlock` are already in the log: skipped
// (re-ingesting adds nothing; their hashes are checked against the log's before the read,
// replay/ingest/checkRepeatedBlocks.ts), and a venue log of block `afterBlock` beyond the log's copy of it stops
// the read (BlockContinuedError): that block was cut short.
import type { BlockEvents, ChainEvent } from '../../engine/chain/chainEvent.js';
import type { LogDecoder } from '../decode/decodeLog.js';
import { hexField } from '../decode/rawLog.js';
import { InputError } from '../../engine/inputError.js';
import { BlockContinuedError } from './blockContinuedError.js';
import { parseCaptureLine } from './parseCaptureLine.js';
import { lineText, readLines } from './readLines.js';
import { createCaptureLineScanner } from './scanCaptureLine.js';
import { FOLD_BATCH_LOGS } from '../../engine/limits.js';

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

export function* readCaptureBatches(options: {
  path: string;
  decoder: LogDecoder;
  afterBlock: number;
  /** The log index of the log's last event in `afterBlock` (-1 for none). */
  afterLogIndex?: number;
  batchLogs?: number;
  progress?: CaptureProgress;
}): Generator<CaptureBatch> {
  const { path, decoder, afterBlock } = options;
  const afterLogIndex = options.afterLogIndex ?? -1;
  const batchLogs = options.batchLogs ?? FOLD_BATCH_LOGS;
  const progress = options.progress ?? { lines: 0, existing: 0, removed: 0 };
  const scan = createCaptureLineScanner();
  let blocks: BlockEvents[] = [];
  let logs = 0;
  let current: BlockEvents | null = null;
  let lastBlock = -1;
  let lastLogIndex = -1;
  let lastTs = 0;
  let lastLine = 0;
  /** The hash of lastBlock, as text: later lines of the block must carry the same digits. */
  let lastHash = '';

  for (const text of readLines(path)) {
    if (isBlank(text.buffer, text.start, text.end)) continue;
    let line = scan(text.buffer, text.start, text.end);
    if (line === null)
      try {
        line = parseCaptureLine(lineText(text));
      } catch (error) {
        const torn = !text.terminated ? ' (the last line is cut short)' : '';
        throw new InputError(path, text.number, `malformed log line: ${(error as Error).message}${torn}`);
      }
    progress.lines++;
    const { raw, block } = line;
    if (block < lastBlock || (block === lastBlock && raw.logIndex <= lastLogIndex)) {
      throw new InputError(
        path,
        text.number,
        `out of order: block ${block} log ${raw.logIndex} comes after block ${lastBlock} log ${lastLogIndex}`,
      );
    }
    if (block > lastBlock) {
      if (lastBlock >= 0 && line.blockTs < lastTs) {
        throw new InputError(
          path,
          text.number,
          `block ${block} has timestamp ${line.blockTs}, before block ${lastBlock}'s ${lastTs}`,
        );
      }
      lastHash = hexField(raw, raw.blockHashAt, 64);
    } else if (line.blockTs !== lastTs || !sameDigits(raw.bytes, raw.blockHashAt, lastHash)) {
      throw new InputError(
        path,
        text.number,
        `block ${block}: blockHash or blockTimestamp differs from earlier lines of the same block`,
      );
    }
    lastBlock = block;
    lastLogIndex = raw.logIndex;
    lastTs = line.blockTs;
    if (block <= afterBlock) {
      if (block === afterBlock && raw.logIndex > afterLogIndex && !line.removed && decoder.decode(raw) !== null) {
        throw new BlockContinuedError(path, text.number, block, afterLogIndex);
      }
      progress.existing++;
      continue;
    }
    if (line.removed) {
      progress.removed++;
      continue;
    }
    if (current === null || current.block !== block) {
      if (current) {
        if (current.events.length > 0) blocks.push(current);
        if (logs >= batchLogs) {
          yield { blocks, logs, lastLine };
          blocks = [];
          logs = 0;
        }
      }
      current = { block, ts: line.blockTs, hash: lastHash, events: [] };
    }
    logs++;
    lastLine = text.number;
    const event: ChainEvent | null = decoder.decode(raw);
    if (event) current.events.push(event);
  }
  if (current && current.events.length > 0) blocks.push(current);
  if (blocks.length > 0 || logs > 0) yield { blocks, logs, lastLine };
}

/** Whether bytes[at, at + 64) are the 64 digits of `hash` (0x + 64 hex). */
function sameDigits(bytes: Buffer, at: number, hash: string): boolean {
  for (let i = 0; i < 64; i++) if (bytes[at + i] !== hash.charCodeAt(2 + i)) return false;
  return true;
}

function isBlank(buffer: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buffer[i];
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}
