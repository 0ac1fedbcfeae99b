// The transaction of a block's log, found by its index: a block's events are in log order (deriveBlock checks it).
import { AssertionFailure } from '../assert.js';
import type { BlockEvents } from '../chain/chainEvent.js';

export function txOfLog(block: BlockEvents, logIndex: number): string {
  const { events } = block;
  let low = 0;
  let high = events.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = events[middle]!.logIndex;
    if (at === logIndex) return events[middle]!.tx;
    if (at < logIndex) low = middle + 1;
    else high = middle - 1;
  }
  // Position events carry the index of the log they were derived from, one of the block's.
  throw new AssertionFailure(`block ${block.block} has no log ${logIndex}`);
}
