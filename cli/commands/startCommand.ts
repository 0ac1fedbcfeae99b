// `tally start` (what `npm start` runs): the demo venue when the data directory is empty, a fresh API key, and
// the server, printing the URL and the key.
import { dataPaths } from '../../engine/dataDir.js';
import { createApiKey } from '../../engine/offchain/apiKeys.js';
import { openOffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { demoCommand } from './demoCommand.js';
import { startServer } from './serveCommand.js';

export async function startCommand(flags: { data: string; host: string; port: number; workers?: number }): Promise<void> {
  await demoCommand({ data: flags.data, workers: flags.workers });
  const offchain = openOffchainStore({ dir: dataPaths(flags.data).offchain });
  const key = await createApiKey(offchain, Math.floor(Date.now() / 1000));
  await offchain.close();
  const server = await startServer({ data: flags.data, host: flags.host, port: flags.port });
  console.log(`tally is serving the demo venue at http://${flags.host}:${server.port}/v1`);
  console.log(`API key: ${key}`);
  console.log(`try: curl -H 'Authorization: Bearer ${key}' http://${flags.host}:${server.port}/v1/health`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await server.closeAll();
}
