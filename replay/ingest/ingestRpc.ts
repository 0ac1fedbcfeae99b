// `tally ingest --rpc URL [--follow]` and `tally run`: chain -> decode -> append to the log -> fold, batch by
// batch, through the one ingest (ingestSource.ts) from the node's source (replay/source/rpcChainSource.ts). Reading
// starts after the log's last block, so re-ingesting adds nothing.
import type { FoldRunner } from '../../engine/fold/createFoldRunner.js';
import type { EventLog } from '../../engine/log/eventLog.js';
import { rpcChainSource, type RpcIngestProgress, type RpcSourceSettings } from '../source/rpcChainSource.js';
import { ingestSource } from './ingestSource.js';

export type { RpcIngestProgress } from '../source/rpcChainSource.js';

export async function ingestRpc(
  options: RpcSourceSettings & {
    log: EventLog;
    runner: FoldRunner;
    /**
     * Events between releases of the state map at most (see createReleasePolicy); Infinity when a server shares the
     * store.
     */
    releaseEveryEvents?: number;
  },
): Promise<RpcIngestProgress> {
  const { source, progress } = rpcChainSource(options);
  await ingestSource(source, options);
  return progress;
}
