// Turns one range's sorted, timed logs (fillBlockTimes) into whole blocks of decoded events (the unit the log
// appends). Removed logs and logs the decoder does not keep are dropped; a block left without events is too.
import type { BlockEvents } from '../../engine/chain/chainEvent.js';
import type { LogDecoder } from '../decode/decodeLog.js';
import type { TimedRpcLog } from './fillBlockTimes.js';

export function assembleBlocks(logs: readonly TimedRpcLog[], decoder: LogDecoder): BlockEvents[] {
  const blocks: BlockEvents[] = [];
  let current: BlockEvents | null = null;
  for (const log of logs) {
    if (!current || current.block !== log.block) {
      if (current && current.events.length > 0) blocks.push(current);
      current = { block: log.block, ts: log.blockTs, hash: log.blockHash, events: [] };
    }
    // Finalized blocks are never reorganised away; a removed log can only come from a confused node.
    if (log.removed) continue;
    const event = decoder.decode(log.raw);
    if (event) current.events.push(event);
  }
  if (current && current.events.length > 0) blocks.push(current);
  return blocks;
}
