// `tally ingest --rpc URL [--follow] [--start-block N]`: fold the venue's finalized logs from a JSON-RPC node.
// Without --follow it stops once caught up with the finalized head; with it, it polls until SIGINT/SIGTERM,
// then finishes the batch in hand and exits 0.
import { ingestRpc } from '../../../replay/ingest/ingestRpc.js';
import { createProgress } from '../progress.js';
import { openVenue } from '../openVenue.js';
import { loadMetadataFile } from './metadataCommand.js';

export async function ingestRpcCommand(flags: {
  data: string; rpc: string; follow: boolean; startBlock?: number; metadata?: string; workers?: number;
}): Promise<void> {
  const venue = openVenue(flags.data, { workers: flags.workers });
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    if (flags.metadata) await loadMetadataFile(venue.offchain, flags.metadata);
    const progress = createProgress('ingest');
    const result = await ingestRpc({
      url: flags.rpc, log: venue.log, store: venue.store, runner: venue.runner, decoder: venue.decoder, addresses: venue.addresses,
      startBlock: flags.startBlock, follow: flags.follow, signal: controller.signal,
      onProgress: (p) => progress.update(p.logs, { logs: p.logs, events: p.events, block: p.scannedBlock, finalized: p.headBlock }),
    });
    const skipped = { ...venue.decoder.skipped, ...venue.runner.skipped };
    progress.finish({
      logs: result.logs, events: result.events, blocks: result.blocks, 'read through block': result.scannedBlock,
      'finalized head': result.headBlock, 'last block': venue.runner.cursor().block, skipped: JSON.stringify(skipped),
    });
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await venue.close();
  }
}
