// Before `ingest --rpc` or `run` opens the venue: ask each configured feed proxy for its aggregators (every phase)
// and keep them in feedAggregators.json, so the fold decodes their AnswerUpdated logs (docs/design.md 6). A proxy with
// no code on this chain (a test chain, a fork) is skipped quietly; one that answers no phase is said. A node that does
// not answer at once is not waited for (the source's own retries will tell of it): the venue folds with the
// aggregators known before, and a later start finds them.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { readFeedAggregators, writeFeedAggregators } from '../engine/chain/feedAggregators.js';
import { loadVenueAddresses } from '../engine/chain/loadVenueAddresses.js';
import { dataPaths } from '../engine/dataDir.js';
import { createRpcClient } from '../replay/source/createRpcClient.js';
import { discoverFeedAggregators } from '../replay/source/discoverFeedAggregators.js';
import { RpcFatalError, RpcRangeError, RpcRetryableError } from '../replay/source/rpcErrors.js';

export async function findFeedAggregators(url: string, data: string, label: string): Promise<void> {
  const paths = dataPaths(data);
  const proxies = Object.keys(loadVenueAddresses(paths.config).feedProxies);
  if (proxies.length === 0) return;
  const rpc = createRpcClient({ url, firstRetry: { retries: 0 }, retry: { retries: 1 } });
  try {
    const deployed: string[] = [];
    for (const proxy of proxies)
      if ((await rpc.request<string>('eth_getCode', [proxy, 'latest'])) !== '0x') deployed.push(proxy);
    if (deployed.length === 0) return;
    const found = await discoverFeedAggregators(rpc, deployed);
    const silent = deployed.filter((proxy) => !found[proxy]);
    if (silent.length > 0)
      process.stderr.write(
        `${label}: feed prox${silent.length > 1 ? 'ies' : 'y'} ${silent.join(', ')} answered no phase aggregator ` +
          `(not a Chainlink proxy?): their rounds get no feed prices; config.json addresses.priceFeeds may name them\n`,
      );
    if (Object.keys(found).length === 0) return;
    mkdirSync(dirname(paths.config), { recursive: true });
    writeFeedAggregators(paths.config, { ...readFeedAggregators(paths.config), ...found });
  } catch (error) {
    // The node did not answer: the source's own retries will tell of it, once.
    if (!(error instanceof RpcFatalError || error instanceof RpcRangeError || error instanceof RpcRetryableError))
      throw error;
  }
}
