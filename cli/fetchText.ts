// Reads an off-chain source over HTTP (metadata pages, profiles). A refused or reset connection, a time-out, HTTP 429,
// 408 or 5xx may pass: under a retry policy they are retried with backoff (retryRpc: jitter, Retry-After honoured,
// each retry told to `onRetry` with its cause). Another error status, or retries spent, is the user's to fix:
// one EnvironmentError line naming the URL.
import { EnvironmentError } from '../engine/environmentError.js';
import { retryRpc, type RetryPolicy, type RpcRetry } from '../replay/source/retryRpc.js';
import { RpcRetriesSpentError, RpcRetryableError } from '../replay/source/rpcErrors.js';

const TIMEOUT_MS = 60_000;

function retryAfterMs(response: Response): number | undefined {
  const seconds = Number(response.headers.get('retry-after') ?? NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

async function fetchOnce(url: string, signal: AbortSignal | undefined): Promise<string> {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    if (response.ok) return await response.text();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = timeout.aborted
      ? `no answer in ${TIMEOUT_MS / 1000} s`
      : (cause?.message ?? cause?.code ?? (error as Error).message);
    // No cause attached: the retry lines and the last one say the reason once, not fetch's layers of it.
    throw new RpcRetryableError(reason);
  }
  const status = `HTTP ${response.status} ${response.statusText}`.trimEnd();
  if (response.status === 408 || response.status === 429 || response.status >= 500) {
    throw new RpcRetryableError(status, retryAfterMs(response));
  }
  throw new EnvironmentError(`cannot fetch ${url}: ${status}`);
}

export async function fetchText(
  url: string,
  options: {
    /** Default: no retry. */
    retry?: RetryPolicy;
    onRetry?: (retry: RpcRetry) => void;
    signal?: AbortSignal;
  } = {},
): Promise<string> {
  try {
    return await retryRpc(url, () => fetchOnce(url, options.signal), {
      policy: options.retry ?? { retries: 0 },
      classify: false,
      onRetry: options.onRetry,
      signal: options.signal,
    });
  } catch (error) {
    if (!(error instanceof RpcRetriesSpentError)) throw error;
    const attempts = error.attempts > 1 ? ` (${error.attempts} attempts)` : '';
    throw new EnvironmentError(`cannot fetch ${url}: ${error.lastCause}${attempts}`, { cause: error });
  }
}
