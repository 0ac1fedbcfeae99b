// A serving thread's heavy-work thread (api/heavy/heavyAnswerWorker.ts), started at the first heavy request and kept:
// one thread at the lowest priority, with a bounded queue, so heavy requests share one core's leftover time among
// themselves and a cheap request never waits behind one.
import { Piscina } from 'piscina';
import { workerOptions } from '../../engine/workerOptions.js';
import type { HeavyWorkerData } from './heavyAnswerWorker.js';
import type { HeavyResult, HeavyTask } from './heavyTask.js';
import { HEAVY_QUEUE } from '../apiLimits.js';

export interface HeavyWork {
  /** Runs a heavy request; rejects with HeavyQueueFull when the queue is full. */
  run(task: HeavyTask): Promise<HeavyResult>;
  close(): Promise<void>;
}

export class HeavyQueueFull extends Error {}

export function createHeavyWork(data: HeavyWorkerData): HeavyWork {
  let pool: Piscina | null = null;
  return {
    run(task) {
      pool ??= new Piscina({
        ...workerOptions('api/heavy/heavyAnswerWorker', import.meta.url),
        minThreads: 1,
        maxThreads: 1,
        maxQueue: HEAVY_QUEUE,
        idleTimeout: Number.MAX_SAFE_INTEGER,
      });
      if (pool.queueSize >= HEAVY_QUEUE) return Promise.reject(new HeavyQueueFull());
      return pool.run({ ...task, ...data } satisfies HeavyTask & HeavyWorkerData) as Promise<HeavyResult>;
    },
    async close() {
      await pool?.destroy();
    },
  };
}
