// The capture reader as a worker (piscina, one thread): reads, validates and decodes a capture file and
// encodes each batch into a log frame, so the fold's main thread only appends frames and derives. One
// session per ingest; each task returns the next batch. Bad input comes back as data (file, line, reason).
import { Piscina, transferableSymbol, valueSymbol } from 'piscina';
import { loadVenueAddresses } from '../../engine/chain/loadVenueAddresses.js';
import type { IdDictionary } from '../../engine/log/idDictionary.js';
import { openEventLog } from '../../engine/log/eventLog.js';
import { encodeLogFrame } from '../../engine/log/logFrame.js';
import { createLogDecoder, type SkipCounts } from '../decode/decodeLog.js';
import { InputError } from '../../engine/inputError.js';
import { BlockContinuedError } from './blockContinuedError.js';
import { readCaptureBatches, type CaptureBatch, type CaptureProgress } from './readCaptureBatches.js';

export interface CaptureReaderTask {
  session: number;
  path: string;
  /** The log the frames are for: the session numbers new ids from where its dictionary ends. */
  logDir: string;
  configPath: string;
  afterBlock: number;
  /** The log index of the log's last event in afterBlock (-1 for none). */
  afterLogIndex: number;
  batchLogs?: number;
}

export interface CaptureReaderResult {
  done: boolean;
  /** A log frame of the batch's blocks, or null when the batch held no venue event. */
  frame: Uint8Array | null;
  logs: number;
  progress: CaptureProgress;
  skipped: SkipCounts;
  /**
   * Bad input; `continuedBlock` when the capture holds more of the log's last block than the log (BlockContinuedError).
   */
  error: { file: string; line: number; detail: string; continuedBlock?: number } | null;
}

interface Session {
  batches: Generator<CaptureBatch>;
  /**
   * The log's dictionary as this session opened it, advanced by every frame encoded (the main thread appends them
   * all, in order).
   */
  ids: IdDictionary;
  progress: CaptureProgress;
  skipped: SkipCounts;
}

const sessions = new Map<number, Session>();

function openSession(task: CaptureReaderTask): Session {
  const decoder = createLogDecoder(loadVenueAddresses(task.configPath));
  const progress: CaptureProgress = { lines: 0, existing: 0, removed: 0 };
  const batches = readCaptureBatches({
    path: task.path,
    decoder,
    afterBlock: task.afterBlock,
    afterLogIndex: task.afterLogIndex,
    batchLogs: task.batchLogs,
    progress,
  });
  const log = openEventLog({ dir: task.logDir, readOnly: true });
  log.close();
  return { batches, ids: log.ids, progress, skipped: decoder.skipped };
}

function closeSession(id: number): void {
  sessions.delete(id);
}

export default function nextCaptureBatch(task: CaptureReaderTask): CaptureReaderResult {
  let session = sessions.get(task.session);
  if (!session) sessions.set(task.session, (session = openSession(task)));
  const result = (done: boolean, frame: Uint8Array | null, logs: number, error: CaptureReaderResult['error']) => {
    if (done) closeSession(task.session);
    return { done, frame, logs, progress: { ...session!.progress }, skipped: { ...session!.skipped }, error };
  };
  try {
    const next = session.batches.next();
    if (next.done) return result(true, null, 0, null);
    const batch = next.value;
    if (batch.blocks.length === 0) return result(false, null, batch.logs, null);
    // The frame's memory moves to the main thread, uncopied: it is a buffer of its own (encodeBlocks).
    const frame = encodeLogFrame(batch.blocks, session.ids);
    return Piscina.move({
      [transferableSymbol]: [frame.buffer],
      [valueSymbol]: result(false, frame, batch.logs, null),
    }) as unknown as CaptureReaderResult;
  } catch (error) {
    if (error instanceof InputError) {
      const continuedBlock = error instanceof BlockContinuedError ? error.block : undefined;
      return result(true, null, 0, { file: error.file, line: error.line, detail: error.detail, continuedBlock });
    }
    closeSession(task.session);
    throw error;
  }
}
