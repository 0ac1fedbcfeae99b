// Folds the log's blocks beyond the runner's cursor (through `toBlock`), showing progress: how `ingest` with no
// source catches the state up, and how replay, verify and rewind rebuild it.
import type { FoldRunner } from '../engine/fold/createFoldRunner.js';
import { createIngestDriver } from '../engine/fold/createIngestDriver.js';
import type { EventLog } from '../engine/log/eventLog.js';
import { createProgress } from './progress.js';

/** Answers the events folded. */
export async function foldWithProgress(
  log: EventLog,
  runner: FoldRunner,
  label: string,
  toBlock?: number,
): Promise<number> {
  const progress = createProgress(label, log.head().events - runner.cursor().events);
  let events = 0;
  await createIngestDriver({ log, runner }).catchUp({
    toBlock,
    onBatch: (blocks) => {
      for (const block of blocks) events += block.events;
      progress.update(events, { events, block: runner.cursor().block });
    },
  });
  progress.finish({ events, 'last block': runner.cursor().block });
  return events;
}
