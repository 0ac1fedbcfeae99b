// Folds the log's blocks after the runner's cursor (through `toBlock`), in batches of about `batchEvents`
// events (fewer when the memory policy asks): how state catches up after a crash, and how replay and verify
// rebuild state from the log alone.
import type { BlockEvents } from '../chain/chainEvent.js';
import type { EventLog } from '../log/eventLog.js';
import type { FoldRunner } from './createFoldRunner.js';
import { createReleasePolicy } from './createReleasePolicy.js';

export async function foldLog(options: {
  log: EventLog;
  runner: FoldRunner;
  toBlock?: number;
  batchEvents?: number;
  /** Events between releases of the state map at most (see createReleasePolicy). */
  releaseEveryEvents?: number;
  onBatch?: (blocks: BlockEvents[]) => void;
}): Promise<void> {
  const { log, runner } = options;
  const release = createReleasePolicy(options.releaseEveryEvents);
  const commit = async (blocks: BlockEvents[]) => {
    const prepared = runner.prepareBatch(blocks);
    await release.beforeCommit(prepared.eventCount, runner.releaseMappedState);
    await runner.commitBatch(prepared);
    options.onBatch?.(blocks);
  };
  let batch: BlockEvents[] = [];
  let events = 0;
  for (const frame of log.read(runner.cursor().block, options.toBlock)) {
    for (const block of frame) {
      batch.push(block);
      events += block.events.length;
      if (events >= Math.min(options.batchEvents ?? 25_000, release.chunkEvents())) {
        await commit(batch);
        batch = [];
        events = 0;
      }
    }
  }
  if (batch.length > 0) await commit(batch);
}
