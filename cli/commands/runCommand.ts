// `tally run --rpc URL` (README.md, Commands), the production mode: follow the chain's finalized blocks and
// serve the API in one process. The server reads the very stores the fold writes (LMDB readers never block the
// writer), so every answer reflects the last committed block, and it keeps answering while the node is away
// (followChainForever). SIGINT/SIGTERM stop both cleanly.
import { findFeedAggregators } from '../findFeedAggregators.js';
import { openVenue } from '../openVenue.js';
import { startMetadataRefresh } from '../refreshMetadata.js';
import { followChainForever } from './followChainForever.js';
import { startFoldingServer } from './serveCommand.js';

export async function runCommand(flags: {
  data: string;
  rpc: string;
  host: string;
  port: number;
  startBlock?: number;
  workers?: number;
  /** Threads serving the port (cli/servingThreads.ts): each reads the state the fold writes. */
  threads?: number;
  accessLog?: boolean;
  /** The market API to load metadata from at start and every `metadataEveryMs` (cli/refreshMetadata.ts). */
  metadataUrl?: string;
  metadataEveryMs?: number;
}): Promise<void> {
  await findFeedAggregators(flags.rpc, flags.data, 'run');
  const venue = openVenue(flags.data, { workers: flags.workers });
  try {
    const server = await startFoldingServer(venue, flags);
    console.log(`tally run: serving ${flags.data} on http://${flags.host}:${server.port}/v1, following the chain`);
    const metadata = flags.metadataUrl
      ? startMetadataRefresh({ url: flags.metadataUrl, offchain: venue.offchain, everyMs: flags.metadataEveryMs })
      : null;
    try {
      await followChainForever(venue, {
        rpc: flags.rpc,
        startBlock: flags.startBlock,
        label: 'run',
        offchainChanged: metadata?.takeChanged,
      });
    } finally {
      await metadata?.stop();
      await server.closeAll();
    }
  } finally {
    await venue.close();
  }
}
