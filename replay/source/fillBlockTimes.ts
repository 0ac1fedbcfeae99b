// The block time of every log of one range (replay/README.md, JSON-RPC): the log's blockTimestamp when the node
// sends it, else its block header's (createBlockHeaders: asked for in batches, once per block, cached). Every log
// of a block must agree on its hash and time, and a fetched header must have the hash the logs name: otherwise
// the node answered from two different views of the chain, and the range is fetched again.
import type { BlockHeaders } from './createBlockHeaders.js';
import type { RpcLog } from './parseRpcLog.js';
import { RpcRetryableError } from './rpcErrors.js';

/** A log whose block time is known. */
export type TimedRpcLog = RpcLog & { blockTs: number };

/** Fills in `blockTs` where the node left it out; returns the same logs, sorted as they came (by block). */
export async function fillBlockTimes(logs: RpcLog[], headers: BlockHeaders): Promise<TimedRpcLog[]> {
  const untimed: number[] = [];
  for (const log of logs) if (log.blockTs === null && untimed.at(-1) !== log.block) untimed.push(log.block);
  const fetched = untimed.length > 0 ? await headers.many(untimed) : null;
  let block = -1;
  let hash = '';
  let ts = 0;
  for (const log of logs) {
    if (log.block !== block) {
      const header = fetched?.get(log.block);
      if (header && header.hash !== log.blockHash) {
        throw new RpcRetryableError(
          `block ${log.block}: its header has hash ${header.hash} but its logs name ${log.blockHash}`,
        );
      }
      block = log.block;
      hash = log.blockHash;
      ts = log.blockTs ?? header!.ts;
    } else if (log.blockHash !== hash || (log.blockTs !== null && log.blockTs !== ts)) {
      throw new RpcRetryableError(`block ${log.block}: its logs differ in blockHash or blockTimestamp`);
    }
    log.blockTs = ts;
  }
  return logs as TimedRpcLog[];
}
