// A node's log as a capture line (replay/README.md, Inputs), with its block's time filled in: what `tally capture`
// writes. The line is the demo's (formatCaptureLine), so the capture reader's fast path takes every line.
import { formatCaptureLine } from './encodeLog.js';
import { hexField } from '../decode/rawLog.js';
import type { TimedRpcLog } from './fillBlockTimes.js';

/** One line, no newline. A removed log is the caller's to drop (a finalized range has none). */
export function encodeCaptureLine(log: TimedRpcLog): string {
  const { raw } = log;
  const topics: string[] = [];
  for (let i = 0; i < raw.topicCount; i++) topics.push(hexField(raw, raw.topicAt[i]!, 64));
  const data = raw.bytes.toString('latin1', raw.dataStart - 2, raw.dataEnd);
  return formatCaptureLine(
    hexField(raw, raw.addressAt, 40),
    { topics, data },
    {
      blockNumber: log.block,
      blockHash: log.blockHash,
      blockTs: log.blockTs,
      txHash: hexField(raw, raw.txAt, 64),
      txIndex: raw.txIndex,
      logIndex: raw.logIndex,
    },
  );
}
