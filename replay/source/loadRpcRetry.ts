// The retry policy of a service that follows the chain (`tally run`), from the data directory's config.json:
//   "rpc": { "maxBackoffMs": 30000 }
// It never gives up: a node that went away is waited for with backoff doubling from 0.5 s up to the cap, so an
// outage costs one request per cap at most, and the fold resumes within a cap of the node's return.
import { readConfigFile } from '../../engine/foldOptions.js';
import { InputError } from '../../engine/inputError.js';
import { CONNECTED_RETRY, type RetryPolicy } from './retryRpc.js';

/** Bounds: below 100 ms a dead node would be asked ten times a second; past an hour an outage's end goes unnoticed. */
const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 3_600_000;

export function loadRpcRetry(configPath: string): Required<RetryPolicy> {
  const rpc = readConfigFile(configPath)?.rpc ?? {};
  if (typeof rpc !== 'object' || rpc === null || Array.isArray(rpc))
    throw new InputError(configPath, 0, 'rpc must be an object');
  const unknown = Object.keys(rpc).find((name) => name !== 'maxBackoffMs');
  if (unknown !== undefined) throw new InputError(configPath, 0, `rpc: unknown field ${unknown} (maxBackoffMs)`);
  const maxMs = (rpc as { maxBackoffMs?: unknown }).maxBackoffMs ?? CONNECTED_RETRY.maxMs!;
  if (typeof maxMs !== 'number' || !Number.isInteger(maxMs) || maxMs < MIN_BACKOFF_MS || maxMs > MAX_BACKOFF_MS) {
    throw new InputError(
      configPath,
      0,
      `rpc.maxBackoffMs must be an integer from ${MIN_BACKOFF_MS} to ${MAX_BACKOFF_MS}`,
    );
  }
  return { retries: Infinity, baseMs: Math.min(CONNECTED_RETRY.baseMs!, maxMs), maxMs };
}
