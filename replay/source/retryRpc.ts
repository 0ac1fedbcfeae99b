// Retries a JSON-RPC call on retryable errors with exponential backoff and jitter (half of each step is random,
// so clients hitting one provider spread out), honouring a Retry-After the provider sent. Range errors and fatal
// errors go straight to the caller; a retryable error that outlives the budget becomes fatal, naming the attempts.
import { classifyRpcError, describeRpcError, RpcFatalError, RpcRetryableError } from './rpcErrors.js';

export interface RetryPolicy {
  /** Attempts after the first. Default 8 (about two minutes of backoff in all). */
  retries?: number;
  /** The first backoff step. Default 500 ms. */
  baseMs?: number;
  /** The largest backoff step. Default 30 s. */
  maxMs?: number;
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

/**
 * `classify` maps any error of `call` onto the RPC error types (for a raw request); without it only an
 * RpcRetryableError is retried and everything else passes through untouched (for steps of the source's own
 * code, whose bugs must not be mistaken for a flaky node).
 */
export async function retryRpc<T>(
  method: string, call: () => Promise<T>, policy: RetryPolicy = {}, signal?: AbortSignal, classify = true,
): Promise<T> {
  const retries = policy.retries ?? 8;
  const baseMs = policy.baseMs ?? 500;
  const maxMs = policy.maxMs ?? 30_000;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const typed = classify ? classifyRpcError(error, method) : error;
      if (!(typed instanceof RpcRetryableError) || signal?.aborted) throw typed;
      if (attempt >= retries) {
        throw new RpcFatalError(`${method} still failing after ${attempt + 1} attempts: ${describeRpcError(error)}`, { cause: error });
      }
      const backoff = Math.min(maxMs, baseMs * 2 ** attempt);
      await sleep(Math.max(typed.retryAfterMs ?? 0, backoff / 2 + Math.random() * (backoff / 2)), signal);
      if (signal?.aborted) throw typed;
    }
  }
}
