// What a serving thread hands its heavy-work thread (api/heavy/heavyAnswerWorker.ts) and what comes back: the
// request as the route reads it (its query read once, on the serving thread), and the answer's bytes (moved, not
// copied) under the generation they were read at.
import type { QueryOf, QuerySpec } from '../query/queryParams.js';
import type { Coding } from '../transport/contentCoding.js';

export interface HeavyTask {
  /** The route's operationId: two routes may share a pattern (Route.claimedBy). */
  operationId: string;
  parameters: string[];
  query: QueryOf<QuerySpec>;
  /** The coding the client takes: the compression is made beside the answer, off the serving thread. */
  coding: Coding | null;
}

export interface HeavyResult {
  status: number;
  json: Uint8Array;
  /** The answer in the task's coding, when it was worth compressing. */
  compressed: Uint8Array | null;
  /** The answer's own headers (a HeadedAnswer's). */
  headers?: Record<string, string>;
  /** The state generation the answer was read at (api/stateReads.ts): cached only under the same. */
  generation: string;
}
