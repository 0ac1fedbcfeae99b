// What a serving thread hands its heavy-work thread (api/heavy/heavyAnswerWorker.ts) and what comes back: the
// request as the route reads it, and the answer's bytes (moved, not copied) under the generation they were read at.

export interface HeavyTask {
  pattern: string;
  parameters: string[];
  /** The raw query string: the worker reads it with the route's own rules. */
  query: string;
  /** The gzip is made beside the answer, off the serving thread, when the client takes it. */
  gzip: boolean;
}

export interface HeavyResult {
  status: number;
  json: Uint8Array;
  gzip: Uint8Array | null;
  /** The state generation the answer was read at (api/stateReads.ts): cached only under the same. */
  generation: string;
}
