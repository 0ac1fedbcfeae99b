// The chain `tally devnet` serves: every block number from 0 up, the capture's blocks with their own hashes, times
// and logs, the blocks between them empty, their times interpolated (blocks before the capture and after it
// spaced BLOCK_SECONDS apart, as on Polygon). The head moves with the wall clock: it starts at `startBlock` and
// reveals the blocks whose time the chain's clock has reached, `pace` chain seconds a second; past the capture the
// chain goes on making empty blocks. `finalized` trails the head by FINALITY_BLOCKS.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import type { CaptureIndex } from './indexCapture.js';

export const BLOCK_SECONDS = 2;
/** How far `finalized` trails `latest`: Polygon's milestones finalize within seconds, a few blocks behind. */
export const FINALITY_BLOCKS = 16;
/** The most logs one eth_getLogs answers, as hosted nodes cap them (tally's range halves on the error). */
export const MAX_LOGS = 10_000;

export interface DevnetHeader {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
}

export interface LogFilter {
  fromBlock: number;
  toBlock: number;
  /** Lowercase addresses; null: any. */
  address: ReadonlySet<string> | null;
  /** Per topic position, the lowercase alternatives; null: any. */
  topics: ReadonlyArray<ReadonlySet<string> | null>;
}

/** More logs than an answer holds: the caller answers it as nodes do, asking for a smaller range. */
export class TooManyLogsError extends Error {}

export interface DevnetChain {
  latest(): number;
  finalized(): number;
  /** A block at or below the head, else null. */
  header(block: number): DevnetHeader | null;
  /** The JSON texts of the logs the filter matches (blocks past the head hold none yet). */
  logs(filter: LogFilter): string[];
  close(): void;
}

export interface DevnetChainOptions {
  /** Chain seconds a wall second; 0: the whole capture at once, and no block after it. */
  pace: number;
  /** The head at the start; default the block six hours of chain time before the capture's last. */
  startBlock?: number;
  /** Wall milliseconds (injected, so tests can move the clock). */
  now: () => number;
}

export function createDevnetChain(index: CaptureIndex, options: DevnetChainOptions): DevnetChain {
  const { blocks, blockTs, blockCount } = index;
  const first = blocks[0]!;
  const last = blocks[blockCount - 1]!;
  const lastTs = blockTs[blockCount - 1]!;

  /** The place of the last capture block at or below `block`, or -1. */
  const placeAtOrBelow = (block: number) => {
    let lo = 0;
    let hi = blockCount - 1;
    if (block < first) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (blocks[mid]! <= block) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const timeOf = (block: number): number => {
    if (block < first) return Math.max(0, blockTs[0]! - BLOCK_SECONDS * (first - block));
    if (block >= last) return lastTs + BLOCK_SECONDS * (block - last);
    const at = placeAtOrBelow(block);
    const from = blocks[at]!;
    if (from === block) return blockTs[at]!;
    const to = blocks[at + 1]!;
    return blockTs[at]! + Math.floor(((blockTs[at + 1]! - blockTs[at]!) * (block - from)) / (to - from));
  };
  /** The last block whose time is at or before `ts`, from `floor` up. */
  const lastBlockAt = (ts: number, floor: number) => {
    if (ts >= lastTs) return last + Math.floor((ts - lastTs) / BLOCK_SECONDS);
    let lo = floor;
    let hi = last;
    while (lo < hi) {
      const mid = Math.floor((lo + hi + 1) / 2);
      if (timeOf(mid) <= ts) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  const startBlock = options.startBlock ?? Math.max(first, lastBlockAt(lastTs - 6 * 3_600, first));
  const startTs = timeOf(startBlock);
  const startedAt = options.now();
  const latest = () =>
    options.pace === 0
      ? last
      : Math.max(
          startBlock,
          lastBlockAt(startTs + Math.floor(((options.now() - startedAt) / 1000) * options.pace), startBlock),
        );
  const finalized = () => (options.pace === 0 ? last : Math.max(0, latest() - FINALITY_BLOCKS));

  const hashOf = (block: number): string => {
    const at = placeAtOrBelow(block);
    if (at >= 0 && blocks[at] === block) return '0x' + index.blockHashes.toString('hex', 32 * at, 32 * at + 32);
    return '0x' + createHash('sha256').update(`tally devnet block ${block}`).digest('hex');
  };

  const fd = openSync(index.path, 'r');
  const readLine = (line: number) => {
    const bytes = Buffer.allocUnsafe(index.lineLength[line]!);
    readSync(fd, bytes, 0, bytes.length, index.lineOffset[line]!);
    return bytes.toString('utf8');
  };
  const topicMatches = (text: string, topics: LogFilter['topics']) => {
    const logTopics = (JSON.parse(text) as { topics: string[] }).topics.map((topic) => topic.toLowerCase());
    return topics.every((wanted, i) => wanted === null || (logTopics[i] !== undefined && wanted.has(logTopics[i]!)));
  };

  return {
    latest,
    finalized,
    header(block) {
      if (!Number.isSafeInteger(block) || block < 0 || block > latest()) return null;
      return {
        number: block,
        hash: hashOf(block),
        parentHash: block === 0 ? '0x' + '0'.repeat(64) : hashOf(block - 1),
        timestamp: timeOf(block),
      };
    },
    logs({ fromBlock, toBlock, address, topics }) {
      const to = Math.min(toBlock, latest());
      if (to < fromBlock || to < first || fromBlock > last) return [];
      const fromPlace = fromBlock <= first ? 0 : placeAtOrBelow(fromBlock - 1) + 1;
      const toPlace = placeAtOrBelow(to);
      if (fromPlace > toPlace) return [];
      const begin = index.blockFirstLine[fromPlace]!;
      const end = toPlace + 1 < blockCount ? index.blockFirstLine[toPlace + 1]! : index.lineCount;
      const addressIds = address && new Set(index.addresses.flatMap((text, id) => (address.has(text) ? [id] : [])));
      const topic0Ids = topics[0]
        ? new Set(index.topics.flatMap((text, id) => (topics[0]!.has(text) ? [id] : [])))
        : null;
      const later = topics.slice(1).some((wanted) => wanted !== null);
      const found: string[] = [];
      for (let line = begin; line < end; line++) {
        if (addressIds && !addressIds.has(index.lineAddress[line]!)) continue;
        if (topic0Ids && !topic0Ids.has(index.lineTopic0[line]!)) continue;
        const text = readLine(line);
        if (later && !topicMatches(text, topics)) continue;
        if (found.length === MAX_LOGS) throw new TooManyLogsError(`query returned more than ${MAX_LOGS} results`);
        found.push(text);
      }
      return found;
    },
    close() {
      closeSync(fd);
    },
  };
}
