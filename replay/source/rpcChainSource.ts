// An RPC node as a chain source (chainSource.ts): readRpcBatches' batches of decoded blocks, each committed before
// the next is read (a server sharing the state sees each), the fold aimed at the node's finalized head first. The
// head and the block read through are recorded (engine/state/sourceHead.ts) so /v1/health can report the lag, and
// so is an outage while its requests fail (engine/state/sourceOutage.ts), carried over from the process that
// recorded it.
import type { Transport } from 'viem';
import type { VenueAddresses } from '../../engine/chain/venueAddresses.js';
import type { StateStore } from '../../engine/state/openStateStore.js';
import { writeReadThrough, writeSourceHead, type SourceHead } from '../../engine/state/sourceHead.js';
import { nextOutage, readSourceOutage, writeSourceOutage, type SourceOutage } from '../../engine/state/sourceOutage.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import type { LogDecoder } from '../decode/decodeLog.js';
import type { RangeOptions } from './adaptiveRange.js';
import type { ChainSource } from './chainSource.js';
import { readRpcBatches } from './readRpcBatches.js';
import type { RetryPolicy, RpcRetry } from './retryRpc.js';

export interface RpcIngestProgress {
  logs: number;
  events: number;
  /** Blocks appended (blocks with venue events). */
  blocks: number;
  /** The log's last block. */
  lastBlock: number;
  /** Every block up to this one has been read. */
  scannedBlock: number;
  /** The node's finalized block, -1 before the first answer. */
  headBlock: number;
}

export interface RpcSourceSettings {
  url: string;
  store: StateStore;
  decoder: LogDecoder;
  addresses: VenueAddresses;
  startBlock?: number;
  follow?: boolean;
  pollMs?: number;
  signal?: AbortSignal;
  confirmations?: number;
  range?: RangeOptions;
  /** Retries once the node has answered, and until it first does (readRpcBatches). */
  retry?: RetryPolicy;
  firstRetry?: RetryPolicy;
  /** Told of every retry of a request to the node, with its cause (after the outage is recorded). */
  onRetry?: (retry: RpcRetry) => void;
  /** Told when the node answers again after an outage, with the outage. */
  onRecovered?: (outage: SourceOutage) => void;
  transport?: Transport;
  warn?: (message: string) => void;
  onProgress?: (progress: RpcIngestProgress) => void;
  /** After each batch is committed, with no commit in flight: the state is at rest (the board's rollup runs here). */
  atRest?: () => Promise<void>;
}

export function rpcChainSource(options: RpcSourceSettings): { source: ChainSource; progress: RpcIngestProgress } {
  const { store } = options;
  const progress: RpcIngestProgress = { logs: 0, events: 0, blocks: 0, lastBlock: -1, scannedBlock: -1, headBlock: -1 };
  const state = createStateReader(store);
  // The head arrives inside the source; it is written between batches (engine/state/sourceHead.ts).
  let head: SourceHead | null = null;
  let written = -1;
  let outage = readSourceOutage(store);
  const recordOutage = (value: SourceOutage | null) => {
    outage = value;
    writeSourceOutage(store, value).catch((error: unknown) =>
      options.warn?.(`tally: could not record the source's outage: ${String(error)}`),
    );
  };
  const failed = (retry: RpcRetry) => {
    recordOutage(nextOutage(outage, retry.cause, Math.floor(Date.now() / 1000)));
    options.onRetry?.(retry);
  };
  const answered = () => {
    if (outage === null) return;
    const ended = outage;
    recordOutage(null);
    options.onRecovered?.(ended);
  };
  let readThrough = -1;
  const writeHead = async () => {
    if (head && head.block !== written) {
      written = head.block;
      await writeSourceHead(store, head);
    }
    // Empty blocks after the last with venue events are read too: the lag is counted from them (sourceHead.ts).
    if (progress.scannedBlock > readThrough) {
      readThrough = progress.scannedBlock;
      await writeReadThrough(store, { block: readThrough, ts: head?.block === readThrough ? head.ts : 0 });
    }
  };
  let afterBlock = -1;
  const source: ChainSource = {
    handOffFirst: false,
    async open(after) {
      afterBlock = after.block;
      progress.lastBlock = after.block;
      progress.scannedBlock = after.block;
      // The node's head is learned as it is read: the fold aims at it batch by batch.
      return {};
    },
    async *batches() {
      for await (const batch of readRpcBatches({
        url: options.url,
        addresses: options.addresses,
        decoder: options.decoder,
        afterBlock,
        startBlock: options.startBlock,
        follow: options.follow,
        pollMs: options.pollMs,
        signal: options.signal,
        knownHash: (block) => state.block(block)?.hash,
        confirmations: options.confirmations,
        range: options.range,
        retry: options.retry,
        firstRetry: options.firstRetry,
        onRetry: failed,
        transport: options.transport,
        warn: options.warn,
        onHead: (value) => {
          answered();
          head = value;
          progress.headBlock = value.block;
        },
      })) {
        answered();
        yield {
          // Far behind the node's head, the fold backfills until it is near (engine/README.md, Backfill). From
          // nothing too, but only when far: a served state near its head is never caught between a commit and its
          // hand-off.
          aim: progress.headBlock >= 0 ? { head: progress.headBlock, from: progress.scannedBlock } : undefined,
          blocks: batch.blocks,
          // Followers and the server sharing the store see each batch folded before the next is read.
          commit: true,
          handOffNear: { head: Math.max(progress.headBlock, batch.lastBlock), at: batch.lastBlock },
          appended() {
            if (batch.blocks.length > 0) progress.lastBlock = batch.blocks[batch.blocks.length - 1]!.block;
            progress.logs += batch.logs;
            progress.blocks += batch.blocks.length;
            for (const block of batch.blocks) progress.events += block.events.length;
            progress.scannedBlock = batch.lastBlock;
          },
          async settled() {
            await writeHead();
            options.onProgress?.(progress);
            await options.atRest?.();
          },
        };
      }
    },
    async ended(handOffNear) {
      await handOffNear(progress.scannedBlock, progress.scannedBlock);
      await writeHead();
    },
    async close() {},
  };
  return { source, progress };
}
