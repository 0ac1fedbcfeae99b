// The JSON-RPC connection of the chain source: a viem client over HTTP (or a given transport), with viem's own
// retries off so that every retry decision is the source's (retryRpc), and requestMany's requests sent as one
// JSON-RPC batch (block headers are fetched many at a time). Until the node first answers, requests retry under
// the short first-connection budget, so a wrong URL or a node not started is told within seconds; from the first
// answer on, under the connected one.
import { createPublicClient, http, type Transport } from 'viem';
import { CONNECTED_RETRY, FIRST_CONNECTION_RETRY, retryRpc, type RetryPolicy, type RpcRetry } from './retryRpc.js';
import { classifyRpcError, RpcFatalError, RpcRetriesSpentError } from './rpcErrors.js';

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
  /** Once the node has answered. Default CONNECTED_RETRY. */
  retry?: RetryPolicy;
  /**
   * Until the node first answers. Default FIRST_CONNECTION_RETRY; a client made again after an outage may pass `retry`.
   */
  firstRetry?: RetryPolicy;
  signal?: AbortSignal;
  /** Told of every retry before its wait, with its cause. */
  onRetry?: (retry: RpcRetry) => void;
}): RpcClient {
  const timeout = options.timeoutMs ?? 30_000;
  const url = redactUrl(options.url);
  // Only requestMany batches: a provider that mishandles JSON-RPC batches then costs header fetches, not logs.
  const single = createPublicClient({ transport: options.transport ?? http(options.url, { retryCount: 0, timeout }) });
  const batched = createPublicClient({
    transport: options.transport ?? http(options.url, { retryCount: 0, timeout, batch: { batchSize: 100, wait: 0 } }),
  });
  // viem's request is typed by a schema of known methods; the source speaks raw JSON-RPC.
  type Raw = (args: { method: string; params: unknown[] }, options: { retryCount: number }) => Promise<unknown>;
  const raw = single.request as unknown as Raw;
  const rawBatched = batched.request as unknown as Raw;

  let connected = false;
  const answered = <T>(value: T): T => {
    connected = true;
    return value;
  };
  const retrying = async <T>(method: string, call: () => Promise<T>, classify: boolean): Promise<T> => {
    const first = !connected;
    const policy = first ? (options.firstRetry ?? FIRST_CONNECTION_RETRY) : (options.retry ?? CONNECTED_RETRY);
    try {
      const { signal, onRetry } = options;
      return await retryRpc(method, async () => answered(await call()), { policy, signal, classify, onRetry });
    } catch (error) {
      if (!first || connected || !(error instanceof RpcRetriesSpentError)) throw error;
      throw new RpcFatalError(
        `${url} did not answer ${error.method} in ${error.attempts} attempts (${error.lastCause}): ` +
          'check the URL and that the node is running',
        { cause: error },
      );
    }
  };
  return {
    url,
    request: <T>(method: string, params: unknown[]) =>
      retrying(method, async () => (await raw({ method, params }, { retryCount: 0 })) as T, true),
    async requestOnce<T>(method: string, params: unknown[]) {
      try {
        return answered((await raw({ method, params }, { retryCount: 0 })) as T);
      } catch (error) {
        throw classifyRpcError(error, method);
      }
    },
    requestMany: <T>(method: string, paramsList: unknown[][]) =>
      retrying(
        method,
        () =>
          Promise.all(paramsList.map(async (params) => (await rawBatched({ method, params }, { retryCount: 0 })) as T)),
        true,
      ),
    retrying: (what, step) => retrying(what, step, false),
  };
}
