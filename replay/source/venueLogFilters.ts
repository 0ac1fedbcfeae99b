// The eth_getLogs filters that fetch every log the venue's decoder uses, and as few others as possible.
//
// 1. The venue's contracts (every address of VenueAddresses and the price feeds), restricted to the venue's
//    event topics: collateral transfers and admin events would only be skipped by the decoder, and some of
//    these contracts (USDC above all) emit far more of them than of anything tally reads.
// 2. The AMM pools. The factory creates them at run time, so their addresses are not known up front. Two
//    ways to fetch their logs: track pools from decoded FixedProductMarketMakerCreation events and add them
//    to the address filter, or ask for the four pool event topics from any address. tally does the second:
//    - a pool created and traded inside one range would otherwise need a second pass over that range;
//    - the Polygon factory made thousands of pools, and many providers cap the addresses of one filter;
//    - the decoder already takes pool events from any address and the fold keeps only the factory's pools
//      (deriveAmmEvent), exactly as for a capture file, which holds whatever was captured.
//    The cost is a second request per range and the pool events of other factories' pools, which are rare
//    on the venue's chain and dropped by the fold.
// 3. The Protocol V2 stack, every topic: its contracts are upgradable, and a log whose topic tally does not know
//    is counted per topic (shown in /v1/health) rather than never fetched.
import { KIND } from '../../engine/chain/chainEvent.js';
import type { VenueAddresses } from '../../engine/chain/venueAddresses.js';
import { protocolV2Contracts } from '../../engine/chain/protocolV2Contracts.js';
import { EVENT_TOPICS } from '../decode/eventAbis.js';

export interface LogFilter {
  address?: string[];
  /** topic0 alternatives; null: every topic. */
  topics: string[] | null;
}

const POOL_KINDS = [KIND.fpmmBuy, KIND.fpmmSell, KIND.fpmmFundingAdded, KIND.fpmmFundingRemoved] as const;

export function venueLogFilters(addresses: VenueAddresses): LogFilter[] {
  const v2Contracts = new Set(protocolV2Contracts(addresses));
  const contracts = new Set<string>();
  for (const [name, value] of Object.entries(addresses)) {
    // Proxies emit no AnswerUpdated (their aggregators do): only the aggregators are fetched.
    if (name === 'feedProxies') continue;
    if (name === 'priceFeeds')
      for (const feed of Object.keys(value as Record<string, string>)) contracts.add(feed.toLowerCase());
    else if (!v2Contracts.has(value as string)) contracts.add((value as string).toLowerCase());
  }
  const poolTopics = new Set<string>(POOL_KINDS.map((kind) => EVENT_TOPICS[kind]));
  const venueTopics = [...new Set<string>(Object.values(EVENT_TOPICS))].filter((topic) => !poolTopics.has(topic));
  return [
    { address: [...contracts].sort(), topics: venueTopics.sort() },
    { topics: [...poolTopics].sort() },
    { address: [...v2Contracts].sort(), topics: null },
  ];
}
