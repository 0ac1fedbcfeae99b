// The venue's logs of one block range: one eth_getLogs per filter (venueLogFilters), merged, checked and
// sorted by (block, logIndex). Two filters can match one log only if a pool shared a venue contract's
// address; such a copy is dropped, but two different logs at one position mean the node is inconsistent.
import { hexField, type RawLog } from '../decode/rawLog.js';
import type { RpcClient } from './createRpcClient.js';
import { parseRpcLog, type RpcLog } from './parseRpcLog.js';
import { RpcFatalError, RpcRetryableError } from './rpcErrors.js';
import type { LogFilter } from './venueLogFilters.js';

const hex = (n: number) => '0x' + n.toString(16);

export async function fetchRangeLogs(
  rpc: RpcClient,
  filters: readonly LogFilter[],
  fromBlock: number,
  toBlock: number,
): Promise<RpcLog[]> {
  const answers = await Promise.all(
    filters.map((filter) =>
      rpc.request<unknown>('eth_getLogs', [
        {
          fromBlock: hex(fromBlock),
          toBlock: hex(toBlock),
          ...(filter.address ? { address: filter.address } : {}),
          ...(filter.topics === null ? {} : { topics: [filter.topics] }),
        },
      ]),
    ),
  );
  const logs: RpcLog[] = [];
  for (const answer of answers) {
    if (!Array.isArray(answer))
      throw new RpcFatalError(
        `eth_getLogs(${fromBlock}..${toBlock}): the node answered ${JSON.stringify(answer)?.slice(0, 80)}, not an array`,
      );
    for (const value of answer) {
      let log: RpcLog;
      try {
        log = parseRpcLog(value);
      } catch (error) {
        throw new RpcFatalError(
          `eth_getLogs(${fromBlock}..${toBlock}): the node answered a malformed log: ${(error as Error).message}`,
        );
      }
      if (log.block < fromBlock || log.block > toBlock) {
        throw new RpcFatalError(
          `eth_getLogs(${fromBlock}..${toBlock}): the node answered a log of block ${log.block}, outside the range`,
        );
      }
      logs.push(log);
    }
  }
  logs.sort((a, b) => a.block - b.block || a.logIndex - b.logIndex);
  let kept = 0;
  for (let i = 0; i < logs.length; i++) {
    const log = logs[i]!;
    const previous = kept > 0 ? logs[kept - 1]! : null;
    if (previous && previous.block === log.block && previous.logIndex === log.logIndex) {
      if (!sameTxAndAddress(previous.raw, log.raw) || previous.blockHash !== log.blockHash) {
        throw new RpcRetryableError(
          `eth_getLogs(${fromBlock}..${toBlock}): two different logs at block ${log.block} log ${log.logIndex}`,
        );
      }
      continue;
    }
    logs[kept++] = log;
  }
  logs.length = kept;
  return logs;
}

function sameTxAndAddress(a: RawLog, b: RawLog): boolean {
  return (
    hexField(a, a.txAt, 64) === hexField(b, b.txAt, 64) && hexField(a, a.addressAt, 40) === hexField(b, b.addressAt, 40)
  );
}
