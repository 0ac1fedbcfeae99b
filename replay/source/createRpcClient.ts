// The JSON-RPC connection of the chain source: a viem client over HTTP (or a given transport), with viem's own
// retries off so that every retry decision is the source's (retryRpc), and requestMany's requests sent as one
// JSON-RPC batch (block headers are fetched many at a time).
import { createPublicClient, http, type Transport } from 'viem';
import { retryRpc, type RetryPolicy } from './retryRpc.js';
import { classifyRpcError } from './rpcErrors.js';

export interface RpcClient {
  /** One request, retried on retryable errors; throws RpcRangeError or RpcFatalError otherwise. */
  request<T>(method: string, params: unknown[]): Promise<T>;
  /** One request, not retried; throws RpcRangeError, RpcRetryableError or RpcFatalError. */
  requestOnce<T>(method: string, params: unknown[]): Promise<T>;
  /** Several requests of one method sent together (one JSON-RPC batch over HTTP) and retried as a unit. */
  requestMany<T>(method: string, paramsList: unknown[][]): Promise<T[]>;
  /**
   * Runs a step built on requests under the same retry policy, for answers that are well-formed but not yet
   * usable (the step throws RpcRetryableError); the requests' own fatal errors pass straight through.
   */
  retrying<T>(what: string, step: () => Promise<T>): Promise<T>;
  /** The endpoint for messages: scheme, host and port only, since providers put API keys in the path or query. */
  readonly url: string;
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin + (parsed.pathname.length > 1 || parsed.search ? '/…' : '');
  } catch {
    return 'the RPC endpoint';
  }
}

export function createRpcClient(options: {
  url: string;
  transport?: Transport;
  timeoutMs?: number;
  retry?: RetryPolicy;
  signal?: AbortSignal;
}): RpcClient {
  const timeout = options.timeoutMs ?? 30_000;
  // Only requestMany batches: a provider that mishandles JSON-RPC batches then costs header fetches, not logs.
  const single = createPublicClient({ transport: options.transport ?? http(options.url, { retryCount: 0, timeout }) });
  const batched = createPublicClient({
    transport: options.transport ?? http(options.url, { retryCount: 0, timeout, batch: { batchSize: 100, wait: 0 } }),
  });
  // viem's request is typed by a schema of known methods; the source speaks raw JSON-RPC.
  type Raw = (args: { method: string; params: unknown[] }, options: { retryCount: number }) => Promise<unknown>;
  const raw = single.request as unknown as Raw;
  const rawBatched = batched.request as unknown as Raw;
  return {
    url: redactUrl(options.url),
    request: <T>(method: string, params: unknown[]) =>
      retryRpc(method, async () => (await raw({ method, params }, { retryCount: 0 })) as T, options.retry, options.signal),
    async requestOnce<T>(method: string, params: unknown[]) {
      try {
        return (await raw({ method, params }, { retryCount: 0 })) as T;
      } catch (error) {
        throw classifyRpcError(error, method);
      }
    },
    requestMany: <T>(method: string, paramsList: unknown[][]) =>
      retryRpc(method, () => Promise.all(paramsList.map(async (params) => (await rawBatched({ method, params }, { retryCount: 0 })) as T)),
        options.retry, options.signal),
    retrying: (what, step) => retryRpc(what, step, options.retry, options.signal, false),
  };
}
