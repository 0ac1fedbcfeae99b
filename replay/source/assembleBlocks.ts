// Turns one range's sorted logs into whole blocks of decoded events (the unit the log appends). A block's
// timestamp is the logs' blockTimestamp when the node sends it, else its header's (fetched in batches and
// cached). Every log of a block must agree on its hash and time, and a fetched header must have the hash the
// logs name: otherwise the node answered from two different views of the chain, and the range is fetched again.
import type { BlockEvents } from '../../engine/chain/chainEvent.js';
import type { LogDecoder } from '../decode/decodeLog.js';
import type { BlockHeaders } from './createBlockHeaders.js';
import type { RpcLog } from './parseRpcLog.js';
import { RpcRetryableError } from './rpcErrors.js';

export async function assembleBlocks(logs: readonly RpcLog[], headers: BlockHeaders, decoder: LogDecoder): Promise<BlockEvents[]> {
  const untimed: number[] = [];
  for (const log of logs) if (log.blockTs === null && untimed.at(-1) !== log.block) untimed.push(log.block);
  const fetched = untimed.length > 0 ? await headers.many(untimed) : null;

  const blocks: BlockEvents[] = [];
  let current: BlockEvents | null = null;
  for (const log of logs) {
    if (!current || current.block !== log.block) {
      if (current && current.events.length > 0) blocks.push(current);
      const header = fetched?.get(log.block);
      if (header && header.hash !== log.blockHash) {
        throw new RpcRetryableError(`block ${log.block}: its header has hash ${header.hash} but its logs name ${log.blockHash}`);
      }
      current = { block: log.block, ts: log.blockTs ?? header!.ts, hash: log.blockHash, events: [] };
    } else if (current.hash !== log.blockHash || (log.blockTs !== null && log.blockTs !== current.ts)) {
      throw new RpcRetryableError(`block ${log.block}: its logs differ in blockHash or blockTimestamp`);
    }
    // Finalized blocks are never reorganised away; a removed log can only come from a confused node.
    if (log.removed) continue;
    const event = decoder.decode(log.raw);
    if (event) current.events.push(event);
  }
  if (current && current.events.length > 0) blocks.push(current);
  return blocks;
}
