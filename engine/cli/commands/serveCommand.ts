// `tally serve --host H --port P`: the HTTP API over the folded state (read while another process may fold).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from '../../../api/createServer.js';
import { dataPaths } from '../../dataDir.js';
import { openOffchainStore } from '../../offchain/openOffchainStore.js';
import { openStateStore } from '../../state/openStateStore.js';
import { readServedBlock } from '../../../api/readServedState.js';
import { isEmptyDataDir } from '../openVenue.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export async function startServer(flags: { data: string; host: string; port: number }): Promise<Server & { closeAll(): Promise<void> }> {
  if (isEmptyDataDir(flags.data)) throw new Error(`${flags.data} holds no venue yet: run tally demo or tally ingest first`);
  const paths = dataPaths(flags.data);
  const store = openStateStore({ dir: paths.state });
  const offchain = openOffchainStore({ dir: paths.offchain });
  const server = await createServer({
    store, offchain, paths, version: VERSION,
    sourceHead: () => {
      const served = readServedBlock(store);
      return { block: served.block, ts: served.blockTs };
    },
  }, { host: flags.host, port: flags.port });
  return {
    ...server,
    async closeAll() {
      server.close();
      await store.close();
      await offchain.close();
    },
  };
}

export async function serveCommand(flags: { data: string; host: string; port: number }): Promise<void> {
  const server = await startServer(flags);
  console.log(`tally serving ${flags.data} on http://${flags.host}:${server.port}/v1`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.closeAll();
}
