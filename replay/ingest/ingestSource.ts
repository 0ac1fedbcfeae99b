// The one ingest (engine/README.md, Pipeline): a chain source's batches appended to the log and folded through the
// ingest driver, whatever the source (replay/source/chainSource.ts). The state first catches up with anything the
// log holds beyond the fold cursor (a crash between append and commit); the source reads after the log's end.
import type { FoldRunner } from '../../engine/fold/createFoldRunner.js';
import { createIngestDriver } from '../../engine/fold/createIngestDriver.js';
import type { EventLog } from '../../engine/log/eventLog.js';
import type { FrameHeader } from '../../engine/log/logFrame.js';
import type { ChainSource, LogEnd } from '../source/chainSource.js';

/** The log's end: its last block and the log index of that block's last event. */
function logEnd(log: EventLog): LogEnd {
  const block = log.head().block;
  let logIndex = -1;
  if (block >= 0)
    for (const b of log.read(block - 1, block)) logIndex = b.events[b.events.length - 1]?.logIndex ?? logIndex;
  return { block, logIndex };
}

export async function ingestSource(
  source: ChainSource,
  options: {
    log: EventLog;
    runner: FoldRunner;
    /** Events between releases of the state map at most (createReleasePolicy); Infinity when a server shares it. */
    releaseEveryEvents?: number;
  },
): Promise<void> {
  const { log, runner } = options;
  const driver = createIngestDriver({ log, runner, releaseEveryEvents: options.releaseEveryEvents });
  await driver.catchUp({ handOff: source.handOffFirst });
  try {
    const { end } = await source.open(logEnd(log));
    if (end !== undefined) await driver.aim(end);
    for await (const batch of source.batches()) {
      if (batch.aim) await driver.aim(batch.aim.head, { from: batch.aim.from, whenEmpty: false });
      let header: FrameHeader | null = null;
      if (batch.frame) header = await driver.appendFrame(batch.frame.bytes, batch.frame.meta);
      else if (batch.blocks && batch.blocks.length > 0) await driver.appendBlocks(batch.blocks);
      batch.appended?.(header);
      if (batch.commit || batch.settled) await driver.finish();
      if (batch.handOffNear) await driver.handOffNear(batch.handOffNear.head, batch.handOffNear.at);
      await batch.settled?.();
    }
    await driver.finish();
    await source.ended?.((head, at) => driver.handOffNear(head, at));
  } finally {
    // A commit that failed is the error reported, whatever stopped the loop (createIngestDriver).
    try {
      await driver.finish();
    } finally {
      await source.close();
    }
  }
}
