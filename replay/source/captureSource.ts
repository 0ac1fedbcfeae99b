// A capture file as a chain source (chainSource.ts): read, validated and decoded by the capture reader's worker
// (captureReaderWorker.ts), one batch ahead of the ingest, each batch encoded into a log frame. Lines already in the
// log are skipped, so re-ingesting adds nothing and a fixed file resumes where it failed: their blocks' hashes are
// checked against the log's first (checkRepeatedBlocks), and a capture holding more of the log's last block than
// the log does stops with BlockContinuedError before anything is appended. A bad line stops before its batch
// reaches the log; the batch in flight completes first, so the state is exactly that of the batches before it.
import { statSync } from 'node:fs';
import { Piscina } from 'piscina';
import type { HandOffResult } from '../../engine/fold/handOffPositions.js';
import { InputError } from '../../engine/inputError.js';
import { READER_OLD_SPACE_MB } from '../../engine/limits.js';
import { RefusedError } from '../../engine/refusedError.js';
import type { StateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { workerOptions } from '../../engine/workerOptions.js';
import type { SkipCounts } from '../decode/decodeLog.js';
import { BlockContinuedError } from './blockContinuedError.js';
import { captureLastBlock } from './captureLastBlock.js';
import type { CaptureReaderResult, CaptureReaderTask } from './captureReaderWorker.js';
import type { ChainSource } from './chainSource.js';
import { checkRepeatedBlocks } from './checkRepeatedBlocks.js';
import type { CaptureProgress } from './readCaptureBatches.js';

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

export function captureSource(options: {
  capturePath: string;
  configPath: string;
  /** The log's directory: the reader numbers new ids from where its dictionary ends. */
  logDir: string;
  store: StateStore;
  batchLogs?: number;
  onProgress?: (progress: IngestProgress) => void;
}): { source: ChainSource; progress: IngestProgress } {
  const progress: IngestProgress = {
    lines: 0,
    existing: 0,
    removed: 0,
    logs: 0,
    events: 0,
    blocks: 0,
    lastBlock: -1,
    skipped: null,
    handOff: null,
  };
  let reader: Piscina | null = null;
  let task: CaptureReaderTask | null = null;
  const source: ChainSource = {
    handOffFirst: false,
    async open(after) {
      progress.lastBlock = after.block;
      // checkRepeatedBlocks reads the capture's first lines before the reader does: from a pipe, it would take them.
      if (after.block >= 0 && statSync(options.capturePath).isFIFO()) {
        throw new RefusedError(
          `--capture ${options.capturePath} is a pipe, read once: the lines repeating the log's blocks cannot be ` +
            'checked before they are read; ingest it into an empty data directory, or from a file',
        );
      }
      const state = createStateReader(options.store);
      // Null when not known before the read: a pipe, or a tail that does not parse (reported where the read reaches
      // it). The fold aims at it once the repeated blocks are checked: bad input changes nothing.
      const end = captureLastBlock(options.capturePath);
      checkRepeatedBlocks({
        capturePath: options.capturePath,
        afterBlock: after.block,
        loggedHash: (block) => state.block(block)?.hash,
      });
      reader = new Piscina({
        ...workerOptions('replay/source/captureReaderWorker', import.meta.url),
        minThreads: 1,
        maxThreads: 1,
        resourceLimits: { maxOldGenerationSizeMb: READER_OLD_SPACE_MB },
      });
      task = {
        session: ++sessions,
        path: options.capturePath,
        logDir: options.logDir,
        configPath: options.configPath,
        afterBlock: after.block,
        afterLogIndex: after.logIndex,
        batchLogs: options.batchLogs,
      };
      return { end };
    },
    async *batches() {
      const pool = reader!;
      const read = task!;
      // A pipeline: the reader works on batch k+1 while batch k is derived, folded and committed.
      let next = pool.run(read) as Promise<CaptureReaderResult>;
      try {
        for (;;) {
          const result = await next;
          if (result.error) {
            const { file, line, detail, continuedBlock } = result.error;
            throw continuedBlock === undefined
              ? new InputError(file, line, detail)
              : new BlockContinuedError(file, line, continuedBlock, read.afterLogIndex);
          }
          if (!result.done) next = pool.run(read) as Promise<CaptureReaderResult>;
          yield {
            frame: result.frame ? { bytes: result.frame } : undefined,
            appended(header) {
              if (header) {
                progress.lastBlock = header.lastBlock;
                progress.blocks += header.blockCount;
                progress.events += header.eventCount;
              }
              progress.logs += result.logs;
              Object.assign(progress, result.progress);
              progress.skipped = result.skipped;
              options.onProgress?.(progress);
            },
          };
          if (result.done) break;
        }
      } finally {
        // Stopped by an error: the batch being read is waited for (a pool destroyed under a running task reports
        // its answer as an error of its own) and dropped.
        await next.catch(() => undefined);
      }
    },
    async ended(handOffNear) {
      progress.handOff = await handOffNear(progress.lastBlock);
    },
    async close() {
      await reader?.destroy();
    },
  };
  return { source, progress };
}
