// One thread of `serve --threads N` (cli/servingThreads.ts): the server over its own reads of the state, on the
// shared port, counting into the shared per-key and request counters; it closes when the main thread says so,
// and then ends.
import { parentPort, workerData } from 'node:worker_threads';
import { EnvironmentError } from '../engine/environmentError.js';
import { RefusedError } from '../engine/refusedError.js';
import { startServer } from './commands/serveCommand.js';
import type { ServingThreadData, ServingThreadMessage } from './servingThreadMessages.js';

const { data, host, port, accessLog, memory } = workerData as ServingThreadData;
try {
  const server = await startServer({ data, host, port, accessLog, thread: memory });
  parentPort!.postMessage({ ready: true } satisfies ServingThreadMessage);
  parentPort!.once('message', () => void server.closeAll().then(() => parentPort!.close()));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  const kind =
    error instanceof EnvironmentError ? 'environment' : error instanceof RefusedError ? 'refused' : 'internal';
  parentPort!.postMessage({ error: message, kind } satisfies ServingThreadMessage);
  parentPort!.close();
}
