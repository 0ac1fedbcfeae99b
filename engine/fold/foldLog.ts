// Folds the log's blocks after the runner's cursor (through `toBlock`), in batches of about `batchEvents`
// events: how state catches up after a crash, and how replay and verify rebuild state from the log alone.
import type { BlockEvents } from '../chain/chainEvent.js';
import type { EventLog } from '../log/eventLog.js';
import type { FoldRunner } from './createFoldRunner.js';

/**
 * Events between releases of the state map (see FoldRunner.releaseMappedState). Random keys spread each batch's
 * reads over the whole B-tree, so between releases the resident map grows to the state's size (about 6 pages
 * an event were measured at 1M fills); a release costs a pipeline stall and the faults that bring pages back,
 * which did not show in the 1M-fill fold time at 25k.
 */
export const RELEASE_EVERY_EVENTS = 50_000;

export async function foldLog(options: {
  log: EventLog;
  runner: FoldRunner;
  toBlock?: number;
  batchEvents?: number;
  /** Events between releases of the state map (default RELEASE_EVERY_EVENTS). */
  releaseEveryEvents?: number;
  onBatch?: (blocks: BlockEvents[]) => void;
}): Promise<void> {
  const { log, runner } = options;
  const batchEvents = options.batchEvents ?? 25_000;
  let batch: BlockEvents[] = [];
  let events = 0;
  let sinceRelease = 0;
  for (const frame of log.read(runner.cursor().block, options.toBlock)) {
    for (const block of frame) {
      batch.push(block);
      events += block.events.length;
    }
    if (events >= batchEvents) {
      sinceRelease += events;
      if (sinceRelease >= (options.releaseEveryEvents ?? RELEASE_EVERY_EVENTS)) {
        await runner.releaseMappedState();
        sinceRelease = 0;
      }
      await runner.foldBatch(batch);
      options.onBatch?.(batch);
      batch = [];
      events = 0;
    }
  }
  if (batch.length > 0) {
    await runner.foldBatch(batch);
    options.onBatch?.(batch);
  }
}
