// Retries a JSON-RPC call on retryable errors with exponential backoff and jitter (half of each step is random,
// so clients hitting one provider spread out), honouring a Retry-After the provider sent. Range errors and fatal
// errors go straight to the caller; a retryable error that outlives the budget becomes fatal, naming the attempts.
// Every retry is told to `onRetry` with its cause, so a command can print why it waits.
import { classifyRpcError, describeRpcError, RpcRetriesSpentError, RpcRetryableError } from './rpcErrors.js';

export interface RetryPolicy {
  /** Attempts after the first (Infinity: never give up). Default 8 (about two minutes of backoff in all). */
  retries?: number;
  /** The first backoff step. Default 500 ms. */
  baseMs?: number;
  /** The largest backoff step. Default 30 s. */
  maxMs?: number;
}

/**
 * Before the node has answered once. A node that refuses or fails the first requests is most often a wrong URL or
 * a node not started: told after about 2 s of backoff (0.25 + 0.5 + 1 s at most), not two minutes of silence.
 */
export const FIRST_CONNECTION_RETRY: RetryPolicy = { retries: 3, baseMs: 250, maxMs: 1_000 };

/** Once the node has answered: an outage of a node that worked is waited out, about two minutes in all. */
export const CONNECTED_RETRY: RetryPolicy = { retries: 8, baseMs: 500, maxMs: 30_000 };

/** One retry about to wait: what failed, why, and when the next attempt goes. */
export interface RpcRetry {
  method: string;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** Attempts the budget allows in all (Infinity when it never gives up). */
  attempts: number;
  delayMs: number;
  /** The provider's own words, or the network's (describeRpcError). */
  cause: string;
}

export interface RetryOptions {
  policy?: RetryPolicy;
  /** Ends the waits at once; the caller checks `signal.aborted`. */
  signal?: AbortSignal;
  /**
   * Map any error of the call onto the RPC error types (for a raw request). false: only an RpcRetryableError is
   * retried and everything else passes through untouched (for steps of the source's own code, whose bugs must
   * not be mistaken for a flaky node).
   */
  classify?: boolean;
  onRetry?: (retry: RpcRetry) => void;
}

/** Resolves after `ms`, or at once when the signal aborts (the caller checks `signal.aborted`). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function retryRpc<T>(method: string, call: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { policy = CONNECTED_RETRY, signal, classify = true } = options;
  const retries = policy.retries ?? CONNECTED_RETRY.retries!;
  const baseMs = policy.baseMs ?? CONNECTED_RETRY.baseMs!;
  const maxMs = policy.maxMs ?? CONNECTED_RETRY.maxMs!;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const typed = classify ? classifyRpcError(error, method) : error;
      if (!(typed instanceof RpcRetryableError) || signal?.aborted) throw typed;
      if (attempt >= retries) {
        throw new RpcRetriesSpentError(method, attempt + 1, describeRpcError(error), { cause: error });
      }
      const backoff = Math.min(maxMs, baseMs * 2 ** attempt);
      const delayMs = Math.round(Math.max(typed.retryAfterMs ?? 0, backoff / 2 + Math.random() * (backoff / 2)));
      const cause = describeRpcError(error);
      options.onRetry?.({ method, attempt: attempt + 1, attempts: retries + 1, delayMs, cause });
      await sleep(delayMs, signal);
      if (signal?.aborted) throw typed;
    }
  }
}
