// `tally verify --capture FILE`: does the log hold every venue event of the capture, up to the log's last
// block? A gap means an ingest skipped logs (a capture cut inside a block, ingested by a tally that did not yet
// detect it): the log, and so the state, lacks them, and only the capture can show it.
import { loadVenueAddresses } from '../../engine/chain/loadVenueAddresses.js';
import type { EventLog } from '../../engine/log/eventLog.js';
import { createLogDecoder } from '../decode/decodeLog.js';
import { readCaptureBatches } from '../source/readCaptureBatches.js';

export interface LogGap {
  block: number;
  /** Log indexes of the capture's venue events the log's copy of the block lacks. */
  missing: number[];
}

export interface LogGapReport {
  /** Blocks of the capture (with venue events) at or below the log's last block, compared. */
  compared: number;
  /** The first block with events the log lacks, null when none. */
  firstGap: LogGap | null;
  /** Blocks of the capture beyond the log's last block: not ingested yet. */
  beyondLog: number;
}

export function findLogGaps(options: { capturePath: string; configPath: string; log: EventLog }): LogGapReport {
  const { log } = options;
  const headBlock = log.head().block;
  const logBlocks = log.read(-1);
  let logBlock = logBlocks.next();
  const report: LogGapReport = { compared: 0, firstGap: null, beyondLog: 0 };
  const decoder = createLogDecoder(loadVenueAddresses(options.configPath));
  for (const batch of readCaptureBatches({ path: options.capturePath, decoder, afterBlock: -1 })) {
    for (const block of batch.blocks) {
      if (block.block > headBlock) {
        report.beyondLog++;
        continue;
      }
      if (report.firstGap) continue;
      while (!logBlock.done && logBlock.value.block < block.block) logBlock = logBlocks.next();
      const logged = new Set(
        !logBlock.done && logBlock.value.block === block.block ? logBlock.value.events.map((e) => e.logIndex) : [],
      );
      const missing = block.events.map((e) => e.logIndex).filter((logIndex) => !logged.has(logIndex));
      report.compared++;
      if (missing.length > 0) report.firstGap = { block: block.block, missing };
    }
  }
  return report;
}
