// `tally ingest --capture FILE`: capture -> decode -> append to the log -> fold, batch by batch. State first
// catches up with anything the log holds beyond the fold cursor (a crash between append and commit). Lines
// already in the log are skipped, so re-ingesting adds nothing and a fixed file resumes where it failed (their
// blocks' hashes are checked against the log's first, checkRepeatedBlocks); a
// capture holding more of the log's last block than the log does stops with BlockContinuedError before it
// appends anything (the ingest command then folds that block again whole).
// Reading and decoding run in their own worker, one batch ahead of the main thread, which appends the encoded
// frames as they are and derives them; the wallet fold and the commit of batch k overlap the derive of k+1.
import { Piscina } from 'piscina';
import type { FoldRunner } from '../../engine/fold/createFoldRunner.js';
import type { StateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { createIngestDriver } from '../../engine/fold/createIngestDriver.js';
import type { EventLog } from '../../engine/log/eventLog.js';
import type { SkipCounts } from '../decode/decodeLog.js';
import type { CaptureReaderResult, CaptureReaderTask } from '../source/captureReaderWorker.js';
import { statSync } from 'node:fs';
import { InputError } from '../../engine/inputError.js';
import { RefusedError } from '../../engine/refusedError.js';
import { BlockContinuedError } from '../source/blockContinuedError.js';
import { checkRepeatedBlocks } from './checkRepeatedBlocks.js';
import { captureLastBlock } from '../source/captureLastBlock.js';
import type { HandOffResult } from '../../engine/fold/handOffPositions.js';
import type { CaptureProgress } from '../source/readCaptureBatches.js';
import { workerOptions } from '../../engine/workerOptions.js';
import { READER_OLD_SPACE_MB } from '../../engine/limits.js';

export interface IngestProgress extends CaptureProgress {
  logs: number;
  events: number;
  blocks: number;
  lastBlock: number;
  skipped: SkipCounts | null;
  /** The backfill's hand-off at the end, when the ingest backfilled (engine/README.md, Backfill). */
  handOff: HandOffResult | null;
}

let sessions = 0;

/** The log index of the log's last event in `block` (its last block), -1 for an empty log. */
function lastLogIndex(log: EventLog, block: number): number {
  let logIndex = -1;
  if (block < 0) return logIndex;
  for (const b of log.read(block - 1, block)) logIndex = b.events[b.events.length - 1]?.logIndex ?? logIndex;
  return logIndex;
}

export async function ingestCapture(options: {
  capturePath: string;
  configPath: string;
  store: StateStore;
  log: EventLog;
  runner: FoldRunner;
  batchLogs?: number;
  /** Events between releases of the state map at most (see createReleasePolicy). */
  releaseEveryEvents?: number;
  onProgress?: (progress: IngestProgress) => void;
}): Promise<IngestProgress> {
  const { log, runner } = options;
  const driver = createIngestDriver({ log, runner, releaseEveryEvents: options.releaseEveryEvents });
  await driver.catchUp({ handOff: false });
  const progress: IngestProgress = {
    lines: 0,
    existing: 0,
    removed: 0,
    logs: 0,
    events: 0,
    blocks: 0,
    lastBlock: log.head().block,
    skipped: null,
    handOff: null,
  };
  const afterBlock = log.head().block;
  // checkRepeatedBlocks reads the capture's first lines before the reader does: from a pipe, it would take them.
  if (afterBlock >= 0 && statSync(options.capturePath).isFIFO()) {
    throw new RefusedError(
      `--capture ${options.capturePath} is a pipe, read once: the lines repeating the log's blocks cannot be checked ` +
        'before they are read; ingest it into an empty data directory, or from a file',
    );
  }
  const afterLogIndex = lastLogIndex(log, afterBlock);
  const state = createStateReader(options.store);
  // Null when not known before the read: a pipe, or a tail that does not parse (reported where the read reaches it).
  await driver.aim(captureLastBlock(options.capturePath));
  checkRepeatedBlocks({
    capturePath: options.capturePath,
    afterBlock,
    loggedHash: (block) => state.block(block)?.hash,
  });
  const reader = new Piscina({
    ...workerOptions('replay/source/captureReaderWorker', import.meta.url),
    minThreads: 1,
    maxThreads: 1,
    resourceLimits: { maxOldGenerationSizeMb: READER_OLD_SPACE_MB },
  });
  const task: CaptureReaderTask = {
    session: ++sessions,
    path: options.capturePath,
    logDir: log.dir,
    configPath: options.configPath,
    afterBlock,
    afterLogIndex,
    batchLogs: options.batchLogs,
  };
  // A pipeline: the reader works on batch k+1 while batch k is derived, folded and committed. A bad line
  // stops before its batch reaches the log; the batch in flight completes first, so the state is exactly
  // that of the batches before the bad one.
  let next = reader.run(task) as Promise<CaptureReaderResult>;
  try {
    for (;;) {
      const result = await next;
      if (result.error) {
        const { file, line, detail, continuedBlock } = result.error;
        throw continuedBlock === undefined
          ? new InputError(file, line, detail)
          : new BlockContinuedError(file, line, continuedBlock, afterLogIndex);
      }
      if (!result.done) next = reader.run(task) as Promise<CaptureReaderResult>;
      if (result.frame) {
        const header = await driver.appendFrame(result.frame);
        progress.lastBlock = header.lastBlock;
        progress.blocks += header.blockCount;
        progress.events += header.eventCount;
      }
      progress.logs += result.logs;
      Object.assign(progress, result.progress);
      progress.skipped = result.skipped;
      options.onProgress?.(progress);
      if (result.done) break;
    }
    progress.handOff = await driver.handOffNear(progress.lastBlock);
  } finally {
    // Stopped by an error: the batch being read is waited for (a pool destroyed under a running task reports its
    // answer as an error of its own) and dropped.
    await next.catch(() => undefined);
    await driver.finish();
    await reader.destroy();
  }
  return progress;
}
