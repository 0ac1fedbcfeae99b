// `tally ingest --capture FILE`: capture -> decode -> append to the log -> fold, batch by batch. State first
// catches up with anything the log holds beyond the fold cursor (a crash between append and commit). Lines
// already in the log are skipped, so re-ingesting adds nothing and a fixed file resumes where it failed.
import type { EventLog } from '../../engine/log/eventLog.js';
import type { FoldRunner } from '../../engine/fold/createFoldRunner.js';
import { foldLog } from '../../engine/fold/foldLog.js';
import type { StateStore } from '../../engine/state/openStateStore.js';
import { decodeValue } from '../../engine/state/stateCodec.js';
import { blockKey } from '../../engine/state/stateKeys.js';
import type { LogDecoder } from '../decode/decodeLog.js';
import { readCaptureBatches, type CaptureProgress } from '../source/readCaptureBatches.js';

export interface IngestProgress extends CaptureProgress {
  logs: number;
  events: number;
  blocks: number;
  lastBlock: number;
}

export async function ingestCapture(options: {
  capturePath: string;
  log: EventLog;
  store: StateStore;
  runner: FoldRunner;
  decoder: LogDecoder;
  batchLogs?: number;
  onProgress?: (progress: IngestProgress) => void;
}): Promise<IngestProgress> {
  const { log, store, runner } = options;
  await foldLog({ log, runner });
  const progress: IngestProgress = { lines: 0, existing: 0, removed: 0, logs: 0, events: 0, blocks: 0, lastBlock: log.head().block };
  const knownHash = (block: number) => {
    const bytes = store.dbs.blocks.getBinary(blockKey(block));
    return bytes ? decodeValue<{ hash: string }>(bytes).hash : undefined;
  };
  // A pipeline one batch deep: while batch k is folded by the workers and committed, the main thread reads,
  // decodes and derives batch k+1. A bad line still stops before its batch reaches the log; the batch in
  // flight completes first, so the state is exactly that of the batches before the bad one.
  let inFlight: Promise<void> = Promise.resolve();
  try {
    for (const batch of readCaptureBatches({
      path: options.capturePath, decoder: options.decoder, afterBlock: log.head().block, knownHash,
      batchLogs: options.batchLogs, progress,
    })) {
      if (batch.blocks.length > 0) {
        log.append(batch.blocks);
        const prepared = runner.prepareBatch(batch.blocks);
        await inFlight;
        inFlight = runner.commitBatch(prepared);
        progress.lastBlock = batch.blocks[batch.blocks.length - 1]!.block;
      }
      progress.logs += batch.logs;
      progress.blocks += batch.blocks.length;
      for (const block of batch.blocks) progress.events += block.events.length;
      options.onProgress?.(progress);
    }
  } finally {
    await inFlight;
  }
  return progress;
}
