// Why a command waits: each retry of a request (to a node, or for a page of an off-chain source) is told with its
// cause, so a source that is down is never silence.
import type { RpcRetry } from '../replay/source/retryRpc.js';

export function describeRetry(retry: RpcRetry): string {
  const of = Number.isFinite(retry.attempts) ? ` of ${retry.attempts}` : '';
  const wait = (retry.delayMs / 1000).toFixed(1);
  return `${retry.method} failed (${retry.cause}): attempt ${retry.attempt}${of}, retrying in ${wait} s`;
}
