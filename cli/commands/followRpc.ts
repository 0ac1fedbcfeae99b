// Shared by `ingest --rpc` and `run`: fold the node's finalized logs into the venue, stopping cleanly on
// SIGINT/SIGTERM (the batch in hand is finished first).
import { ingestRpc, type RpcIngestProgress } from '../../replay/ingest/ingestRpc.js';
import { defaultStartBlock } from '../../replay/source/readRpcBatches.js';
import { createBlockProgress } from '../blockProgress.js';
import { describeRetry } from '../describeRetry.js';
import type { RetryPolicy, RpcRetry } from '../../replay/source/retryRpc.js';
import type { SourceOutage } from '../../engine/state/sourceOutage.js';
import { createProgress } from '../progress.js';
import type { Venue } from '../openVenue.js';
import { createBoardRollup } from '../../engine/rollup/createBoardRollup.js';
import { rollUpBoard } from '../rollUpBoard.js';

const ROLLUP_EVERY_MS = 60_000;

export async function followRpc(
  venue: Venue,
  options: {
    rpc: string;
    follow: boolean;
    startBlock?: number;
    label: string;
    /** Never release the state map when a server in this process reads the same store. */
    sharedWithServer?: boolean;
    /** True when the off-chain data changed since last asked (a metadata refresh): roll up at the next rest. */
    offchainChanged?: () => boolean;
    /** After each batch is committed (`tally publish` ships the log's new frames then). */
    onCommitted?: () => void;
    /** Stops the follow; without it, SIGINT and SIGTERM do. */
    signal?: AbortSignal;
    retry?: RetryPolicy;
    firstRetry?: RetryPolicy;
    /** Told of each retry instead of a line each; and of the node's return after an outage. */
    onRetry?: (retry: RpcRetry) => void;
    onRecovered?: (outage: SourceOutage) => void;
  },
): Promise<RpcIngestProgress> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  if (options.signal) options.signal.addEventListener('abort', stop, { once: true });
  else {
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
  // The rollup reads the whole state: while following, once a minute at most, and once more at the end.
  // On its own thread: a server sharing this process keeps answering meanwhile (the fold waits for it).
  const rollup = createBoardRollup(
    { stateDir: venue.paths.state, offchainDir: venue.paths.offchain, logDir: venue.paths.log },
    { background: options.sharedWithServer ?? false },
  );
  let rolledUpAt = -Infinity;
  const rollUp = async (force: boolean) => {
    if (!force && Date.now() - rolledUpAt < ROLLUP_EVERY_MS) return;
    rolledUpAt = Date.now();
    await rollUpBoard(rollup, options.label);
  };
  try {
    const progress = createProgress(options.label);
    const blocks = createBlockProgress(options.startBlock ?? defaultStartBlock(venue.addresses));
    const result = await ingestRpc({
      url: options.rpc,
      log: venue.log,
      store: venue.store,
      runner: venue.runner,
      decoder: venue.decoder,
      addresses: venue.addresses,
      startBlock: options.startBlock,
      follow: options.follow,
      signal: controller.signal,
      releaseEveryEvents: options.sharedWithServer ? Infinity : undefined,
      onProgress: (p) =>
        progress.update(p.logs, {
          logs: p.logs,
          events: p.events,
          block: p.scannedBlock,
          finalized: p.headBlock,
          ...blocks(p.scannedBlock, p.headBlock),
        }),
      retry: options.retry,
      firstRetry: options.firstRetry,
      onRecovered: options.onRecovered,
      onRetry: options.onRetry ?? ((retry) => progress.note(describeRetry(retry))),
      atRest: () => {
        options.onCommitted?.();
        return rollUp(options.offchainChanged?.() ?? false);
      },
    });
    await rollUp(true);
    progress.finish({
      logs: result.logs,
      events: result.events,
      blocks: result.blocks,
      'read through block': result.scannedBlock,
      'finalized head': result.headBlock,
      'last block': venue.runner.cursor().block,
      'skipped logs': JSON.stringify(venue.decoder.skipped),
      'events without effect': JSON.stringify(venue.runner.skipped),
    });
    return result;
  } finally {
    await rollup.close();
    options.signal?.removeEventListener('abort', stop);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
