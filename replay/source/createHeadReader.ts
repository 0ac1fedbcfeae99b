// The newest block the source may read (engine/README.md, Pipeline: only finalized blocks are ingested): the node's
// `finalized` block. A node that does not know the tag (older clients, some chains) answers with an error or
// no block; the source then follows `latest` minus a number of confirmations and says so once, since it is a
// weaker guarantee. The first probe is not retried when the node itself answered, so that such a node costs
// one request, not a retry budget.
import type { BlockHeader, BlockHeaders } from './createBlockHeaders.js';
import type { RpcClient } from './createRpcClient.js';
import { describeRpcError, isNodeAnswer, RpcFatalError, RpcRetryableError } from './rpcErrors.js';

export interface HeadReader {
  /** The head block; block -1 when the chain is younger than the confirmations. */
  read(): Promise<BlockHeader>;
}

export function createHeadReader(options: {
  rpc: RpcClient;
  headers: BlockHeaders;
  confirmations: number;
  warn: (message: string) => void;
}): HeadReader {
  const { rpc, headers, confirmations } = options;
  let mode: 'unknown' | 'finalized' | 'latest' = 'unknown';

  async function probe(): Promise<void> {
    let reason = 'it has no finalized block';
    try {
      let answer: unknown;
      try {
        answer = await rpc.requestOnce<unknown>('eth_getBlockByNumber', ['finalized', false]);
      } catch (error) {
        // The network, not the node: ask again under the usual retries.
        if (!(error instanceof RpcRetryableError) || isNodeAnswer(error)) throw error;
        answer = await rpc.request<unknown>('eth_getBlockByNumber', ['finalized', false]);
      }
      if (answer !== null && answer !== undefined) {
        mode = 'finalized';
        return;
      }
    } catch (error) {
      if (!isNodeAnswer(error)) throw error;
      reason = describeRpcError(error);
    }
    mode = 'latest';
    options.warn(
      `tally: ${rpc.url} does not serve the 'finalized' block (${reason}); reading up to latest minus ${confirmations} blocks instead`,
    );
  }

  return {
    async read() {
      if (mode === 'unknown') await probe();
      if (mode === 'finalized') {
        return rpc.retrying('eth_getBlockByNumber', async () => {
          const head = await headers.one('finalized');
          if (!head) throw new RpcRetryableError("eth_getBlockByNumber('finalized'): the node returned no block");
          return head;
        });
      }
      const latest = await headers.one('latest');
      if (!latest) throw new RpcFatalError("eth_getBlockByNumber('latest'): the node returned no block");
      const block = latest.block - confirmations;
      if (block < 0) return { block: -1, hash: '', ts: 0 };
      if (block === latest.block) return latest;
      const head = await headers.one(block);
      if (!head) throw new RpcFatalError(`eth_getBlockByNumber(${block}): the node has no block below its latest`);
      return head;
    },
  };
}
