// `serve` and `run` on N threads (issue 26, item 1): each thread opens the state on its own and serves the same
// port (SO_REUSEPORT: the kernel spreads the connections), the per-key limits and the request metrics counted in
// memory they all share (api/limits/sharedKeyCounters.ts, api/metrics/requestMetrics.ts). The port is first bound
// alone, as one server would, so a port in use is refused with the same error; then it is let go and every thread
// binds it shared. `run` folds on its main thread while the threads serve what it commits.
import { createServer } from 'node:net';
import type { Worker } from 'node:worker_threads';
import { createSharedCountersMemory } from '../api/limits/sharedKeyCounters.js';
import { listenError } from '../api/listenError.js';
import { createRequestMetricsMemory } from '../api/metrics/requestMetrics.js';
import { EnvironmentError } from '../engine/environmentError.js';
import { RefusedError } from '../engine/refusedError.js';
import { startWorkerThread } from '../engine/workerOptions.js';
import type { ServingThreadData, ServingThreadMessage } from './servingThreadMessages.js';

/** How long a thread may take to close its server and stores before it is stopped. */
const CLOSE_MS = 10_000;

/** The port free to bind alone (the one given, or one the system picks for 0), or the reason it is not. */
function freePort(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () => void listenError(host, port).then(reject));
    probe.listen({ host, port, exclusive: true }, () => {
      const bound = (probe.address() as { port: number }).port;
      probe.close(() => resolve(bound));
    });
  });
}

const ERRORS = { environment: EnvironmentError, refused: RefusedError, internal: Error };

/** A serving thread, and when it ended (it may end early: an error before it served, or a failure later). */
interface ServingThread {
  worker: Worker;
  ended: Promise<void>;
  hasEnded: boolean;
}

function startThread(data: ServingThreadData): ServingThread {
  const worker = startWorkerThread('cli/servingThread', import.meta.url, data);
  const thread: ServingThread = { worker, ended: Promise.resolve(), hasEnded: false };
  thread.ended = new Promise((resolve) =>
    worker.once('exit', () => {
      thread.hasEnded = true;
      resolve();
    }),
  );
  return thread;
}

/** Resolves once the thread serves; rejects with what stopped it. A failure after that is printed. */
function served({ worker }: ServingThread): Promise<void> {
  return new Promise((resolve, reject) => {
    let serving = false;
    worker.once('message', (message: ServingThreadMessage) => {
      if ('ready' in message) {
        serving = true;
        resolve();
      } else reject(new ERRORS[message.kind](message.error));
    });
    worker.on('error', (error) => {
      if (serving) console.error(`tally: a serving thread failed: ${error.stack ?? error}`);
      else reject(error);
    });
    worker.once('exit', (code) => reject(new Error(`a serving thread exited (${code}) before it served`)));
  });
}

/** Asks the thread to close its server and stores, and waits for it to end (stopped past CLOSE_MS). */
async function closeThread(thread: ServingThread): Promise<void> {
  if (thread.hasEnded) return;
  thread.worker.postMessage('close');
  const timer = setTimeout(() => void thread.worker.terminate(), CLOSE_MS);
  await thread.ended;
  clearTimeout(timer);
}

export interface ServingThreads {
  port: number;
  close(): Promise<void>;
}

export async function startServingThreads(options: {
  data: string;
  host: string;
  port: number;
  threads: number;
  accessLog: boolean;
}): Promise<ServingThreads> {
  const port = await freePort(options.host, options.port);
  const data: ServingThreadData = {
    data: options.data,
    host: options.host,
    port,
    accessLog: options.accessLog,
    memory: { counters: createSharedCountersMemory(), metrics: createRequestMetricsMemory() },
  };
  const threads = Array.from({ length: options.threads }, () => startThread(data));
  const close = async () => {
    await Promise.all(threads.map(closeThread));
  };
  const started = await Promise.allSettled(threads.map(served));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await close();
    throw failed.reason;
  }
  return { port, close };
}
