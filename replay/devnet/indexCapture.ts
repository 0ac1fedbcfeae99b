// The blocks and lines of a capture file (replay/README.md, Inputs), indexed once so that `tally devnet` answers
// eth_getLogs by reading only the lines a filter matches, straight from the file: per line its byte range, its
// address and topic0 (numbered in small tables), per block its number, time, hash and first line. About 20 bytes a
// line, so the 200k demo's 866,055 lines index in some 17 MiB while the file itself stays on disk.
import { InputError } from '../../engine/inputError.js';
import { readLines } from '../source/readLines.js';
import { createCaptureLineScanner } from '../source/scanCaptureLine.js';
import { parseCaptureLine, type CaptureLine } from '../source/parseCaptureLine.js';

export interface CaptureIndex {
  path: string;
  blockCount: number;
  /** Ascending block numbers of the blocks with lines. */
  blocks: Uint32Array;
  blockTs: Uint32Array;
  /** 32 bytes a block. */
  blockHashes: Buffer;
  /** The block's first line; its last is the next block's first less one. */
  blockFirstLine: Uint32Array;
  lineCount: number;
  lineOffset: Float64Array;
  lineLength: Uint32Array;
  lineAddress: Uint16Array;
  lineTopic0: Uint32Array;
  /** Lowercase 0x hex, by the numbers lineAddress and lineTopic0 hold (topic "" for a log without topics). */
  addresses: string[];
  topics: string[];
}

function grown<T extends Uint32Array | Float64Array | Uint16Array>(array: T, size: number): T {
  if (size <= array.length) return array;
  const next = new (array.constructor as new (length: number) => T)(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

export function indexCapture(path: string): CaptureIndex {
  const scan = createCaptureLineScanner();
  const addressIds = new Map<string, number>();
  const topicIds = new Map<string, number>();
  const addresses: string[] = [];
  const topics: string[] = [];
  const idOf = (ids: Map<string, number>, texts: string[], text: string) => {
    let id = ids.get(text);
    if (id === undefined) {
      id = texts.push(text) - 1;
      ids.set(text, id);
    }
    return id;
  };
  let blocks = new Uint32Array(1024);
  let blockTs = new Uint32Array(1024);
  let blockFirstLine = new Uint32Array(1024);
  let blockHashes = Buffer.alloc(32 * 1024);
  let lineOffset = new Float64Array(4096);
  let lineLength = new Uint32Array(4096);
  let lineAddress = new Uint16Array(4096);
  let lineTopic0 = new Uint32Array(4096);
  let blockCount = 0;
  let lineCount = 0;
  let offset = 0;
  for (const line of readLines(path)) {
    const length = line.end - line.start;
    const at = offset;
    offset += length + (line.terminated ? 1 : 0);
    if (length === 0 || (length === 1 && line.buffer[line.start] === 13)) continue;
    let log: CaptureLine | null = scan(line.buffer, line.start, line.end);
    let bytes = line.buffer;
    if (log === null) {
      try {
        log = parseCaptureLine(line.buffer.toString('utf8', line.start, line.end));
      } catch (error) {
        throw new InputError(path, line.number, (error as Error).message);
      }
      bytes = log.raw.bytes;
    }
    if (log.removed)
      throw new InputError(path, line.number, 'a removed log (a reorganised block) has no place in a chain');
    const raw = log.raw;
    const hash = Buffer.from(bytes.toString('latin1', raw.blockHashAt, raw.blockHashAt + 64), 'hex');
    const last = blockCount - 1;
    if (blockCount === 0 || log.block > blocks[last]!) {
      blocks = grown(blocks, blockCount + 1);
      blockTs = grown(blockTs, blockCount + 1);
      blockFirstLine = grown(blockFirstLine, blockCount + 1);
      if (blockHashes.length < 32 * (blockCount + 1)) {
        const next = Buffer.alloc(blockHashes.length * 2);
        blockHashes.copy(next);
        blockHashes = next;
      }
      if (blockCount > 0 && log.blockTs < blockTs[last]!)
        throw new InputError(path, line.number, `block ${log.block}'s time is before block ${blocks[last]}'s`);
      blocks[blockCount] = log.block;
      blockTs[blockCount] = log.blockTs;
      blockFirstLine[blockCount] = lineCount;
      hash.copy(blockHashes, 32 * blockCount);
      blockCount++;
    } else if (log.block < blocks[last]!) {
      throw new InputError(
        path,
        line.number,
        `block ${log.block} after block ${blocks[last]}: lines must be in chain order`,
      );
    } else if (log.blockTs !== blockTs[last] || !hash.equals(blockHashes.subarray(32 * last, 32 * last + 32))) {
      throw new InputError(path, line.number, `block ${log.block} has another hash or time than on its earlier lines`);
    }
    lineOffset = grown(lineOffset, lineCount + 1);
    lineLength = grown(lineLength, lineCount + 1);
    lineAddress = grown(lineAddress, lineCount + 1);
    lineTopic0 = grown(lineTopic0, lineCount + 1);
    lineOffset[lineCount] = at;
    lineLength[lineCount] = length;
    lineAddress[lineCount] = idOf(
      addressIds,
      addresses,
      '0x' + bytes.toString('latin1', raw.addressAt, raw.addressAt + 40),
    );
    lineTopic0[lineCount] = idOf(
      topicIds,
      topics,
      raw.topicCount > 0 ? '0x' + bytes.toString('latin1', raw.topicAt[0]!, raw.topicAt[0]! + 64) : '',
    );
    lineCount++;
  }
  if (addresses.length > 0xffff)
    throw new InputError(path, 0, 'more than 65,535 contract addresses: not a venue capture');
  return {
    path,
    blockCount,
    blocks,
    blockTs,
    blockHashes,
    blockFirstLine,
    lineCount,
    lineOffset,
    lineLength,
    lineAddress,
    lineTopic0,
    addresses,
    topics,
  };
}
