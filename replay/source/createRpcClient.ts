// The JSON-RPC connection of the chain source: a viem client over HTTP (or a given transport), with viem's own
// retries off so that every retry decision is the source's (retryRpc), and concurrent requests sent as one
// JSON-RPC batch (block headers are fetched many at a time).
import { createPublicClient, http, type Transport } from 'viem';
import { retryRpc, type RetryPolicy } from './retryRpc.js';

export interface RpcClient {
  /** One request, retried on retryable errors; throws RpcRangeError or RpcFatalError otherwise. */
  request<T>(method: string, params: unknown[]): Promise<T>;
  readonly url: string;
}

export function createRpcClient(options: {
  url: string;
  transport?: Transport;
  timeoutMs?: number;
  retry?: RetryPolicy;
  signal?: AbortSignal;
}): RpcClient {
  const transport = options.transport ?? http(options.url, {
    retryCount: 0, timeout: options.timeoutMs ?? 30_000, batch: { batchSize: 100, wait: 0 },
  });
  const client = createPublicClient({ transport });
  // viem's request is typed by a schema of known methods; the source speaks raw JSON-RPC.
  const raw = client.request as unknown as (args: { method: string; params: unknown[] }, options: { retryCount: number }) => Promise<unknown>;
  return {
    url: options.url,
    request: <T>(method: string, params: unknown[]) =>
      retryRpc(method, async () => (await raw({ method, params }, { retryCount: 0 })) as T, options.retry, options.signal),
  };
}
