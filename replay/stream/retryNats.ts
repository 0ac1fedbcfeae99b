// What a NATS server down or a JetStream leader being elected again looks like to a client (a timeout, no
// responders, a connection closed or reconnecting) is waited out: the request is tried again, 250 ms doubling to 5 s.
// An answer is not retried: a JetStream API error (a stream not found, a wrong last sequence) or a refusal.
import { JetStreamApiError } from '@nats-io/jetstream';
import { RefusedError } from '../../engine/refusedError.js';
import { sleep } from '../source/retryRpc.js';

const RETRY_BASE_MS = 250;
const RETRY_MAX_MS = 5_000;

/** True for an error that is an answer, not an outage. */
export function isAnswer(error: unknown): boolean {
  return error instanceof JetStreamApiError || error instanceof RefusedError;
}

export async function retryNats<T>(
  attempt: () => Promise<T>,
  options: { onRetry?: (cause: string) => void; maxMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.maxMs ?? Infinity);
  for (let failures = 0; ; failures++) {
    try {
      return await attempt();
    } catch (error) {
      if (isAnswer(error) || Date.now() > deadline) throw error;
      options.onRetry?.((error as Error).message);
      await sleep(Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** failures));
    }
  }
}
