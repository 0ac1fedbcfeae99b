// `tally run --rpc URL` (README.md, Commands), the production mode: follow the chain's finalized blocks and
// serve the API in one process. The server reads the very stores the fold writes (LMDB readers never block the
// writer), so every answer reflects the last committed block, and it keeps answering while the node is away
// (followChainForever). SIGINT/SIGTERM stop both cleanly. A node of another chain is refused before anything is
// served, and a data directory the run made is removed when it ends holding nothing.
import { loadVenueAddresses } from '../../engine/chain/loadVenueAddresses.js';
import { dataPaths } from '../../engine/dataDir.js';
import { createRpcClient } from '../../replay/source/createRpcClient.js';
import { checkVenueChain } from '../../replay/source/readRpcBatches.js';
import { RpcWrongChainError } from '../../replay/source/rpcErrors.js';
import { findFeedAggregators } from '../findFeedAggregators.js';
import { openVenue } from '../openVenue.js';
import { cleanUpMadeDataDir } from './cleanUpMadeDataDir.js';
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
  await cleanUpMadeDataDir(flags.data, async () => {
    await refuseAnotherChain(flags.rpc, flags.data);
    await findFeedAggregators(flags.rpc, flags.data, 'run');
    await followAndServe(flags);
  });
}

/**
 * A node that answers with no venue contract serves another chain: said before `run` says it serves. A node that
 * does not answer yet is left to the follow, which waits for one that answered before and gives up on a new one.
 */
async function refuseAnotherChain(url: string, data: string): Promise<void> {
  const rpc = createRpcClient({ url, firstRetry: { retries: 0 }, retry: { retries: 0 } });
  try {
    await checkVenueChain(rpc, loadVenueAddresses(dataPaths(data).config));
  } catch (error) {
    if (error instanceof RpcWrongChainError) throw error;
  }
}

async function followAndServe(flags: Parameters<typeof runCommand>[0]): Promise<void> {
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
