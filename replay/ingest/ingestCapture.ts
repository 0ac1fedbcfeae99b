// `tally ingest --capture FILE`: capture -> decode -> append to the log -> fold, batch by batch, through the one
// ingest (ingestSource.ts) from the capture's source (replay/source/captureSource.ts). Reading and decoding run in
// the reader's worker, one batch ahead of the main thread, which appends the encoded frames as they are and derives
// them; the wallet fold and the commit of batch k overlap the derive of k+1.
import type { FoldRunner } from '../../engine/fold/createFoldRunner.js';
import type { EventLog } from '../../engine/log/eventLog.js';
import type { StateStore } from '../../engine/state/openStateStore.js';
import { captureSource, type IngestProgress } from '../source/captureSource.js';
import { ingestSource } from './ingestSource.js';

export type { IngestProgress } from '../source/captureSource.js';

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
  const { source, progress } = captureSource({ ...options, logDir: options.log.dir });
  await ingestSource(source, options);
  return progress;
}
