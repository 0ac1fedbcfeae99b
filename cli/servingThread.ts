// One thread of `serve --threads N` (cli/servingThreads.ts): the server over its own reads of the state, on the
// shared port, with the shared per-key counters; it closes when the main thread says so, and then ends.
import { parentPort, workerData } from 'node:worker_threads';
import type { SharedCountersMemory } from '../api/limits/sharedKeyCounters.js';
import { EnvironmentError } from '../engine/environmentError.js';
import { startServer } from './commands/serveCommand.js';

export interface ServingThreadData {
  data: string;
  host: string;
  port: number;
  accessLog: boolean;
  counters: SharedCountersMemory;
}

export type ServingThreadMessage = { ready: true } | { error: string; environment: boolean };

const { data, host, port, accessLog, counters } = workerData as ServingThreadData;
try {
  const server = await startServer({ data, host, port, accessLog, thread: { counters } });
  parentPort!.postMessage({ ready: true } satisfies ServingThreadMessage);
  parentPort!.once('message', () => void server.closeAll().then(() => parentPort!.close()));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  parentPort!.postMessage({
    error: message,
    environment: error instanceof EnvironmentError,
  } satisfies ServingThreadMessage);
  parentPort!.close();
}
