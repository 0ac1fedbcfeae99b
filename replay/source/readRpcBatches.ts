// Reads the venue's logs from any Ethereum JSON-RPC endpoint into batches of whole blocks of decoded events
// (engine/README.md, Pipeline, and replay/README.md, Inputs), the chain's counterpart of readCaptureBatches. One batch
// per eth_getLogs range: ranges adapt to what the node tolerates (adaptiveRange), requests are retried with backoff
// (retryRpc), and nothing above the node's finalized block is read (createHeadReader). Blocks at or below `afterBlock`
// are already in the log and never asked for, so re-ingesting adds nothing; before reading on, the node's hash of the
// log's last block must still be the one the log holds (`knownHash`), else a FinalityMismatchError names the block.
// With `follow`, it polls for newer finalized blocks until `signal` aborts, then ends cleanly; with `toBlock`, it ends
// after that block. `keepLogs` hands on each range's logs as well (tally capture writes them).
import type { Transport } from 'viem';
import type { BlockEvents } from '../../engine/chain/chainEvent.js';
import { POLYGON_ADDRESSES, POLYGON_START_BLOCK, type VenueAddresses } from '../../engine/chain/venueAddresses.js';
import type { LogDecoder } from '../decode/decodeLog.js';
import { createAdaptiveRange, type RangeOptions } from './adaptiveRange.js';
import { assembleBlocks } from './assembleBlocks.js';
import { createBlockHeaders, type BlockHeader } from './createBlockHeaders.js';
import { createHeadReader } from './createHeadReader.js';
import { createRpcClient, type RpcClient } from './createRpcClient.js';
import { fetchRangeLogs } from './fetchRangeLogs.js';
import { fillBlockTimes, type TimedRpcLog } from './fillBlockTimes.js';
import { sleep, type RetryPolicy, type RpcRetry } from './retryRpc.js';
import { FinalityMismatchError, RpcFatalError, RpcRangeError, RpcWrongChainError } from './rpcErrors.js';
import { venueLogFilters } from './venueLogFilters.js';

export interface RpcBatch {
  /** Blocks with at least one venue event, ascending. */
  blocks: BlockEvents[];
  /** Chain logs the node returned for this range (venue events or not). */
  logs: number;
  /** The range's last block: every block up to it has been read. */
  lastBlock: number;
  /** With `keepLogs`: every log the node returned for the range, sorted, each with its block's time. */
  chainLogs?: TimedRpcLog[];
}

export interface RpcSourceOptions {
  url: string;
  addresses: VenueAddresses;
  decoder: LogDecoder;
  /** The log's last block (-1 when empty): reading starts after it. */
  afterBlock: number;
  /** Where to start when the log is empty. Default: the CTF's deployment for the Polygon addresses, else 0. */
  startBlock?: number;
  follow?: boolean;
  /** The last block to read (default: none, up to the finalized head). */
  toBlock?: number;
  /** Hand on the range's logs in each batch (`chainLogs`). */
  keepLogs?: boolean;
  /** Default 2,000 ms. */
  pollMs?: number;
  signal?: AbortSignal;
  knownHash?: (block: number) => string | undefined;
  onHead?: (head: { block: number; ts: number }) => void;
  /** Without a finalized tag, read up to latest minus this many blocks. Default 256. */
  confirmations?: number;
  range?: RangeOptions;
  /** Retries once the node has answered (default CONNECTED_RETRY, retryRpc.ts). */
  retry?: RetryPolicy;
  /**
   * Retries until the node first answers (default FIRST_CONNECTION_RETRY: a wrong URL or a node not started fails
   * within seconds). A caller reading again after an outage of a node that had answered passes its `retry`.
   */
  firstRetry?: RetryPolicy;
  /** Told of every retry before its wait, with its cause (the command line prints it). */
  onRetry?: (retry: RpcRetry) => void;
  /** A viem transport to use instead of http(url) (tests, embedding). */
  transport?: Transport;
  /** Where the one-time notices go. Default stderr. */
  warn?: (message: string) => void;
}

export function defaultStartBlock(addresses: VenueAddresses): number {
  return addresses.ctf === POLYGON_ADDRESSES.ctf ? POLYGON_START_BLOCK : 0;
}

/** A node of another chain (or a config naming the wrong addresses) would yield nothing, silently: refuse it. */
export async function checkVenueChain(rpc: RpcClient, addresses: VenueAddresses): Promise<void> {
  // One after the other: a node that does not answer is retried (and told) once, not twice at a time.
  const chainId = await rpc.request<string>('eth_chainId', []);
  const code = await rpc.request<string>('eth_getCode', [addresses.ctf, 'latest']);
  if (typeof code !== 'string' || code === '0x' || code === '0x0') {
    throw new RpcWrongChainError(
      `${rpc.url} (chain id ${parseInt(String(chainId), 16)}) has no contract at the CTF address ${addresses.ctf}: ` +
        "it serves another chain, or the data directory's config.json does not name this chain's contracts",
    );
  }
}

export async function* readRpcBatches(options: RpcSourceOptions): AsyncGenerator<RpcBatch> {
  const { decoder, signal } = options;
  const rpc = createRpcClient({
    url: options.url,
    transport: options.transport,
    retry: options.retry,
    firstRetry: options.firstRetry,
    signal,
    onRetry: options.onRetry,
  });
  const headers = createBlockHeaders(rpc);
  const heads = createHeadReader({
    rpc,
    headers,
    confirmations: options.confirmations ?? 256,
    warn: options.warn ?? ((message) => process.stderr.write(message + '\n')),
  });
  const range = createAdaptiveRange(options.range);
  const filters = venueLogFilters(options.addresses);
  const pollMs = options.pollMs ?? 2_000;

  const readHead = async (): Promise<BlockHeader> => {
    const head = await heads.read();
    if (head.block >= 0) options.onHead?.({ block: head.block, ts: head.ts });
    return head;
  };
  const checkFinality = async (block: number): Promise<void> => {
    const known = block >= 0 ? options.knownHash?.(block) : undefined;
    if (known === undefined) return;
    const header = await headers.one(block);
    if (!header || header.hash !== known) throw new FinalityMismatchError(block, header?.hash ?? null, known);
  };
  /** One range's blocks, or null when the node's answer was too big to trust (the range is halved). */
  const readRange = (from: number, to: number) =>
    rpc.retrying('eth_getLogs', async () => {
      const logs = await fetchRangeLogs(rpc, filters, from, to);
      if (range.isTooMany(logs.length, to - from + 1)) return null;
      const timed = await fillBlockTimes(logs, headers);
      return { logs: timed, blocks: assembleBlocks(timed, decoder) };
    });
  const toBlock = options.toBlock ?? Infinity;

  try {
    await checkVenueChain(rpc, options.addresses);
    let next =
      options.afterBlock >= 0 ? options.afterBlock + 1 : (options.startBlock ?? defaultStartBlock(options.addresses));
    let lastIngested = options.afterBlock;
    let head = await readHead();
    await checkFinality(lastIngested);
    for (;;) {
      while (next <= Math.min(head.block, toBlock)) {
        if (signal?.aborted) return;
        const to = Math.min(head.block, toBlock, next + range.size() - 1);
        let read;
        try {
          read = await readRange(next, to);
        } catch (error) {
          if (!(error instanceof RpcRangeError)) throw error;
          if (range.shrink(to - next + 1)) continue;
          throw new RpcFatalError(
            `eth_getLogs of block ${next} alone fails, so a smaller range cannot help: ${error.message}`,
            { cause: error },
          );
        }
        if (read === null) {
          range.shrink(to - next + 1);
          continue;
        }
        range.succeed(read.logs.length);
        const chainLogs = options.keepLogs ? read.logs : undefined;
        yield { blocks: read.blocks, logs: read.logs.length, lastBlock: to, chainLogs };
        if (read.blocks.length > 0) lastIngested = read.blocks[read.blocks.length - 1]!.block;
        next = to + 1;
      }
      // Caught up with the head read last. Without follow, stop once the head stands still; with it, poll.
      if (next > toBlock) return;
      if (!options.follow) {
        const newer = await readHead();
        if (newer.block <= head.block) return;
        head = newer;
      } else {
        for (;;) {
          await sleep(pollMs, signal);
          if (signal?.aborted) return;
          const newer = await readHead();
          if (newer.block > head.block) {
            head = newer;
            break;
          }
        }
      }
      await checkFinality(lastIngested);
    }
  } catch (error) {
    // An abort interrupts requests and waits half-way; what they throw then is the stop, not a failure.
    if (signal?.aborted) return;
    throw error;
  }
}
