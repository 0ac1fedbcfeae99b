// `tally run --rpc URL` (DESIGN.md section 8), the production mode: follow the chain's finalized blocks and
// serve the API in one process. The server reads the very stores the fold writes (LMDB readers never block the
// writer), so every answer reflects the last committed block. SIGINT/SIGTERM stop both cleanly.
import { ingestRpc } from '../../../replay/ingest/ingestRpc.js';
import { createProgress } from '../progress.js';
import { openVenue } from '../openVenue.js';
import { startServer } from './serveCommand.js';

export async function runCommand(flags: {
  data: string; rpc: string; host: string; port: number; startBlock?: number; workers?: number;
}): Promise<void> {
  const venue = openVenue(flags.data, { workers: flags.workers });
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const server = await startServer({ data: flags.data, host: flags.host, port: flags.port, stores: { store: venue.store, offchain: venue.offchain } });
    console.log(`tally run: serving ${flags.data} on http://${flags.host}:${server.port}/v1, following the chain`);
    try {
      const progress = createProgress('run');
      const result = await ingestRpc({
        url: flags.rpc, log: venue.log, store: venue.store, runner: venue.runner, decoder: venue.decoder, addresses: venue.addresses,
        startBlock: flags.startBlock, follow: true, signal: controller.signal,
        onProgress: (p) => progress.update(p.logs, { logs: p.logs, events: p.events, block: p.scannedBlock, finalized: p.headBlock }),
      });
      progress.finish({ logs: result.logs, events: result.events, blocks: result.blocks, 'last block': venue.runner.cursor().block });
    } finally {
      await server.closeAll();
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await venue.close();
  }
}
