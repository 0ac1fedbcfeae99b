// `tally capture` (replay/README.md, Capture from a node): the venue's logs of a block range, read by the JSON-RPC
// source itself (readRpcBatches: the same filters, adaptive ranges, retries and finalized blocks as `ingest --rpc`,
// block times from the headers when the node leaves them out), handed on as capture lines. A range's lines go to
// `write` together and ranges hold whole blocks, so what was written holds every block through the last range.
import type { Transport } from 'viem';
import type { VenueAddresses } from '../../engine/chain/venueAddresses.js';
import { createLogDecoder } from '../decode/decodeLog.js';
import type { RangeOptions } from './adaptiveRange.js';
import { encodeCaptureLine } from './encodeCaptureLine.js';
import { readRpcBatches } from './readRpcBatches.js';
import type { RetryPolicy, RpcRetry } from './retryRpc.js';

export interface CaptureProgress {
  /** Lines written. */
  logs: number;
  /** Blocks with at least one line. */
  blocks: number;
  /** Every block from the first through this one has been read (first - 1 before any). */
  scannedBlock: number;
}

export async function captureRpcLogs(options: {
  url: string;
  addresses: VenueAddresses;
  fromBlock: number;
  /** Default: the node's finalized head. */
  toBlock?: number;
  /** Takes a range's lines, each ending in a newline (nothing for a range without logs). */
  write: (lines: string) => void;
  signal?: AbortSignal;
  onHead?: (head: { block: number; ts: number }) => void;
  onRetry?: (retry: RpcRetry) => void;
  onProgress?: (progress: CaptureProgress) => void;
  warn?: (message: string) => void;
  range?: RangeOptions;
  retry?: RetryPolicy;
  transport?: Transport;
}): Promise<CaptureProgress> {
  const progress: CaptureProgress = { logs: 0, blocks: 0, scannedBlock: options.fromBlock - 1 };
  for await (const batch of readRpcBatches({
    url: options.url,
    addresses: options.addresses,
    decoder: createLogDecoder(options.addresses),
    afterBlock: -1,
    startBlock: options.fromBlock,
    toBlock: options.toBlock,
    keepLogs: true,
    signal: options.signal,
    onHead: options.onHead,
    onRetry: options.onRetry,
    warn: options.warn,
    range: options.range,
    retry: options.retry,
    transport: options.transport,
  })) {
    let lines = '';
    let lastBlock = -1;
    for (const log of batch.chainLogs!) {
      // Finalized ranges hold no removed log; the capture reader would only count and skip one.
      if (log.removed) continue;
      lines += encodeCaptureLine(log) + '\n';
      progress.logs++;
      if (log.block !== lastBlock) progress.blocks++;
      lastBlock = log.block;
    }
    if (lines.length > 0) options.write(lines);
    progress.scannedBlock = batch.lastBlock;
    options.onProgress?.(progress);
  }
  return progress;
}
