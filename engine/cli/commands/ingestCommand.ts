// `tally ingest --capture FILE [--metadata FILE]`: fold a capture file (and load market metadata).
import { ingestCapture } from '../../../replay/ingest/ingestCapture.js';
import { createProgress } from '../progress.js';
import { openVenue } from '../openVenue.js';
import { loadMetadataFile } from './metadataCommand.js';

export async function ingestCommand(flags: {
  data: string; capture?: string; metadata?: string; workers?: number; batchLogs?: number; releaseEvery?: number;
}): Promise<void> {
  if (!flags.capture && !flags.metadata) throw new Error('ingest needs --capture FILE or --rpc URL (and/or --metadata FILE)');
  const venue = openVenue(flags.data, { workers: flags.workers });
  try {
    if (flags.metadata) await loadMetadataFile(venue.offchain, flags.metadata);
    if (flags.capture) {
      const progress = createProgress('ingest');
      const result = await ingestCapture({
        capturePath: flags.capture, configPath: venue.paths.config, store: venue.store, log: venue.log, runner: venue.runner,
        batchLogs: flags.batchLogs, releaseEveryEvents: flags.releaseEvery,
        onProgress: (p) => progress.update(p.logs, { logs: p.logs, events: p.events, block: p.lastBlock }),
      });
      progress.finish({
        logs: result.logs, events: result.events, blocks: result.blocks, 'already in log': result.existing,
        'last block': venue.runner.cursor().block, 'skipped logs': JSON.stringify(result.skipped ?? {}),
        'events without effect': JSON.stringify(venue.runner.skipped),
      });
    }
  } finally {
    await venue.close();
  }
}
