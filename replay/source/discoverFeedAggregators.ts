// The aggregators behind each Chainlink feed proxy (docs/design.md 6, docs/venue.md 2.9): AnswerUpdated comes from the
// aggregator, not the proxy, and a proxy changes aggregator (a new phase) without an event, so every phase's is
// asked for: phaseId(), then phaseAggregators(1..phaseId). A proxy that answers no phase (not a proxy, or none
// deployed at this address on this chain) is left out, said by the caller.
import { toFunctionSelector } from 'viem';
import type { FeedAggregators } from '../../engine/chain/feedAggregators.js';
import type { RpcClient } from './createRpcClient.js';

const PHASE_ID = toFunctionSelector('phaseId()');
const PHASE_AGGREGATORS = toFunctionSelector('phaseAggregators(uint16)');
/** A proxy has had a few phases; more than this is not a feed proxy's answer. */
const MAX_PHASES = 1_000;

function word(answer: unknown): bigint | null {
  return typeof answer === 'string' && /^0x[0-9a-fA-F]{64}$/.test(answer) ? BigInt(answer) : null;
}

export async function discoverFeedAggregators(rpc: RpcClient, proxies: readonly string[]): Promise<FeedAggregators> {
  const found: FeedAggregators = {};
  for (const proxy of proxies) {
    const phases = word(await rpc.request('eth_call', [{ to: proxy, data: PHASE_ID }, 'latest']));
    if (phases === null || phases === 0n || phases > BigInt(MAX_PHASES)) continue;
    const calls = Array.from({ length: Number(phases) }, (_, i) => [
      { to: proxy, data: PHASE_AGGREGATORS + (i + 1).toString(16).padStart(64, '0') },
      'latest',
    ]);
    const aggregators = (await rpc.requestMany<unknown>('eth_call', calls))
      .map(word)
      .filter((value): value is bigint => value !== null && value !== 0n && value < 1n << 160n)
      .map((value) => '0x' + value.toString(16).padStart(40, '0'));
    if (aggregators.length > 0) found[proxy] = [...new Set(aggregators)];
  }
  return found;
}
