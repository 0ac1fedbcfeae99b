// Block headers (number, hash, timestamp) from the node, for timestamps the logs do not carry, for the finality
// check and for the head. Fetched in chunks sent as one JSON-RPC batch each, and cached per block: a range's
// blocks are asked for once even when several steps need them. The cache is bounded; old blocks are not
// asked for again in normal operation.
import type { RpcClient } from './createRpcClient.js';
import { RpcFatalError, RpcRetryableError } from './rpcErrors.js';

export interface BlockHeader {
  block: number;
  hash: string;
  ts: number;
}

export interface BlockHeaders {
  /** The header of a block number or tag, always asked of the node (the finality check needs its current
   * answer); null when the node has no such block. */
  one(block: number | 'latest' | 'finalized'): Promise<BlockHeader | null>;
  /** Headers of many blocks the node returned logs of (so it must have them). */
  many(blocks: readonly number[]): Promise<Map<number, BlockHeader>>;
}

interface NodeBlock {
  number?: unknown;
  hash?: unknown;
  timestamp?: unknown;
}

const CHUNK = 100;
const CACHE_LIMIT = 20_000;

function toHeader(value: unknown, asked: string): BlockHeader | null {
  if (value === null || value === undefined) return null;
  const block = value as NodeBlock;
  if (
    typeof block.number !== 'string' ||
    typeof block.hash !== 'string' ||
    typeof block.timestamp !== 'string' ||
    !/^0x[0-9a-fA-F]{64}$/.test(block.hash)
  ) {
    throw new RpcFatalError(`eth_getBlockByNumber(${asked}): the node answered a malformed block header`);
  }
  return { block: parseInt(block.number, 16), hash: block.hash.toLowerCase(), ts: parseInt(block.timestamp, 16) };
}

export function createBlockHeaders(rpc: RpcClient): BlockHeaders {
  const cache = new Map<number, BlockHeader>();
  const remember = (header: BlockHeader) => {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(header.block, header);
  };
  return {
    async one(block) {
      const tag = typeof block === 'number' ? '0x' + block.toString(16) : block;
      const header = toHeader(await rpc.request('eth_getBlockByNumber', [tag, false]), tag);
      if (header) remember(header);
      return header;
    },
    async many(blocks) {
      const found = new Map<number, BlockHeader>();
      const missing: number[] = [];
      for (const block of blocks) {
        const cached = cache.get(block);
        if (cached) found.set(block, cached);
        else missing.push(block);
      }
      for (let i = 0; i < missing.length; i += CHUNK) {
        const chunk = missing.slice(i, i + CHUNK);
        // A load-balanced provider may ask a node a little behind: a missing header is worth another try.
        const headers = await rpc.retrying('eth_getBlockByNumber', async () => {
          const answers = await rpc.requestMany(
            'eth_getBlockByNumber',
            chunk.map((block) => ['0x' + block.toString(16), false]),
          );
          return chunk.map((block, j) => {
            const header = toHeader(answers[j], String(block));
            if (!header || header.block !== block)
              throw new RpcRetryableError(
                `eth_getBlockByNumber: the node has no block ${block} though it returned logs of it`,
              );
            return header;
          });
        });
        for (const header of headers) {
          remember(header);
          found.set(header.block, header);
        }
      }
      return found;
    },
  };
}
