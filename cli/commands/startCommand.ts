// `tally start` (what `npm start` runs): the demo venue when the data directory is empty, a fresh API key, and
// the server, printing the API's URL, the board's and the key.
import { createApiKey } from '../../engine/offchain/apiKeys.js';
import { demoCommand } from './demoCommand.js';
import { startServer } from './serveCommand.js';

export async function startCommand(flags: {
  data: string;
  host: string;
  port: number;
  workers?: number;
}): Promise<void> {
  await demoCommand({ data: flags.data, workers: flags.workers });
  // The key only once the server listens: a port in use must not leave a key behind that was never printed.
  const server = await startServer({ data: flags.data, host: flags.host, port: flags.port });
  const key = await createApiKey(server.offchain, Math.floor(Date.now() / 1000));
  console.log(`tally is serving the demo venue at http://${flags.host}:${server.port}/v1`);
  console.log(`open http://${flags.host}:${server.port}/ in a browser for the board (it asks for the key once)`);
  console.log(`API key: ${key}`);
  console.log(`try: curl -H 'Authorization: Bearer ${key}' http://${flags.host}:${server.port}/v1/health`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await server.closeAll();
}
