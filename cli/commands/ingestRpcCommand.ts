// `tally ingest --rpc URL [--follow] [--start-block N]`: fold the venue's finalized logs from a JSON-RPC node.
// Without --follow it stops once caught up with the finalized head; with it, it polls until SIGINT/SIGTERM,
// then finishes the batch in hand and exits 0.
import { findFeedAggregators } from '../findFeedAggregators.js';
import { openVenue } from '../openVenue.js';
import { followRpc } from './followRpc.js';
import { readMetadataFile, storeMetadata } from './metadataCommand.js';

export async function ingestRpcCommand(flags: {
  data: string;
  rpc: string;
  follow: boolean;
  startBlock?: number;
  metadata?: string;
  workers?: number;
}): Promise<void> {
  // Read before the venue is opened: a metadata file refused creates no data directory.
  const markets = flags.metadata ? readMetadataFile(flags.metadata, 'metadata') : null;
  await findFeedAggregators(flags.rpc, flags.data, 'ingest');
  const venue = openVenue(flags.data, { workers: flags.workers });
  try {
    if (markets) await storeMetadata(venue.offchain, markets, flags.metadata!);
    await followRpc(venue, { rpc: flags.rpc, follow: flags.follow, startBlock: flags.startBlock, label: 'ingest' });
  } finally {
    await venue.close();
  }
}
