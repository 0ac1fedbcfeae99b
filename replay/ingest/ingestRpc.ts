// `tally ingest --rpc URL [--follow]` and `tally run`: chain -> decode -> append to the log -> fold, batch by
// batch, like ingestCapture. State first catches up with anything the log holds beyond the fold cursor (a crash
// between append and commit); reading starts after the log's last block, so re-ingesting adds nothing. The
// node's finalized head and the block read through are recorded (engine/state/sourceHead.ts) so /v1/health can
// report the lag, and so is an outage while its requests fail (engine/state/sourceOutage.ts), carried over from the
// process that recorded it.
import type { Transport } from 'viem';
import type { VenueAddresses } from '../../engine/chain/venueAddresses.js';
import type { FoldRunner } from '../../engine/fold/createFoldRunner.js';
import { createIngestDriver } from '../../engine/fold/createIngestDriver.js';
import type { EventLog } from '../../engine/log/eventLog.js';
import type { StateStore } from '../../engine/state/openStateStore.js';
import { writeReadThrough, writeSourceHead, type SourceHead } from '../../engine/state/sourceHead.js';
import { nextOutage, readSourceOutage, writeSourceOutage, type SourceOutage } from '../../engine/state/sourceOutage.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import type { LogDecoder } from '../decode/decodeLog.js';
import type { RangeOptions } from '../source/adaptiveRange.js';
import { readRpcBatches } from '../source/readRpcBatches.js';
import type { RetryPolicy, RpcRetry } from '../source/retryRpc.js';

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

export async function ingestRpc(options: {
  url: string;
  log: EventLog;
  store: StateStore;
  runner: FoldRunner;
  decoder: LogDecoder;
  addresses: VenueAddresses;
  startBlock?: number;
  follow?: boolean;
  pollMs?: number;
  signal?: AbortSignal;
  /**
   * Events between releases of the state map at most (see createReleasePolicy); Infinity when a server shares the
   * store.
   */
  releaseEveryEvents?: number;
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
}): Promise<RpcIngestProgress> {
  const { log, store, runner } = options;
  const driver = createIngestDriver({ log, runner, releaseEveryEvents: options.releaseEveryEvents });
  // A backfill goes on with the node's blocks: the hand-off waits until the fold is near the node's head.
  await driver.catchUp({ handOff: false });
  const afterBlock = log.head().block;
  const progress: RpcIngestProgress = {
    logs: 0,
    events: 0,
    blocks: 0,
    lastBlock: afterBlock,
    scannedBlock: afterBlock,
    headBlock: -1,
  };
  const state = createStateReader(store);
  const knownHash = (block: number) => state.block(block)?.hash;
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
  for await (const batch of readRpcBatches({
    url: options.url,
    addresses: options.addresses,
    decoder: options.decoder,
    afterBlock,
    startBlock: options.startBlock,
    follow: options.follow,
    pollMs: options.pollMs,
    signal: options.signal,
    knownHash,
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
    // Far behind the node's head, the fold backfills until it is near (engine/README.md, Backfill). From nothing
    // too, but only when far: a served state near its head is never caught between a commit and its hand-off.
    if (progress.headBlock >= 0)
      await driver.aim(progress.headBlock, { from: progress.scannedBlock, whenEmpty: false });
    if (batch.blocks.length > 0) {
      await driver.appendBlocks(batch.blocks);
      // Followers and the server sharing the store see each batch folded before the next is read.
      await driver.finish();
      progress.lastBlock = batch.blocks[batch.blocks.length - 1]!.block;
    }
    progress.logs += batch.logs;
    progress.blocks += batch.blocks.length;
    for (const block of batch.blocks) progress.events += block.events.length;
    progress.scannedBlock = batch.lastBlock;
    await driver.handOffNear(Math.max(progress.headBlock, batch.lastBlock), batch.lastBlock);
    await writeHead();
    options.onProgress?.(progress);
    await options.atRest?.();
  }
  await driver.handOffNear(progress.scannedBlock, progress.scannedBlock);
  await writeHead();
  return progress;
}
