// What a serving thread (servingThread.ts) is started with and answers its starter (servingThreads.ts) with: apart
// from both, so that the starter names the thread's module by its path alone.
import type { ServingThreadMemory } from '../api/server/createServer.js';

export interface ServingThreadData {
  data: string;
  host: string;
  port: number;
  accessLog: boolean;
  memory: ServingThreadMemory;
}

/** An error a thread met before serving, by the class the command line reports it as (one line, or a bug). */
export type ServingThreadMessage = { ready: true } | { error: string; kind: 'environment' | 'refused' | 'internal' };
