// Contract addresses: the Polygon defaults, overridden by an optional JSON config file in the data directory
// ({ "addresses": { "ctfExchange": "0x...", "priceFeeds": { "0xaggregator": "BTC" } } }), plus the feed
// aggregators found over JSON-RPC and kept beside it (feedAggregators.json, see readFeedAggregators).
import { readConfigFile } from '../foldOptions.js';
import { InputError } from '../inputError.js';
import { readFeedAggregators } from './feedAggregators.js';
import { POLYGON_ADDRESSES, type VenueAddresses } from './venueAddresses.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** Address -> asset maps: a config's map replaces the default one. */
const ASSET_MAPS = new Set(['priceFeeds', 'feedProxies']);

export function loadVenueAddresses(configPath: string): VenueAddresses {
  const config = readConfigFile(configPath) as { addresses?: Record<string, unknown> } | null;
  const addresses: VenueAddresses = {
    ...POLYGON_ADDRESSES,
    priceFeeds: { ...POLYGON_ADDRESSES.priceFeeds },
    feedProxies: { ...POLYGON_ADDRESSES.feedProxies },
  };
  for (const [name, value] of Object.entries(config?.addresses ?? {})) {
    if (ASSET_MAPS.has(name)) {
      const map: Record<string, string> = {};
      for (const [feed, asset] of Object.entries(value as Record<string, string>)) {
        if (!ADDRESS.test(feed)) throw new InputError(configPath, 0, `${name} key ${feed} is not an address`);
        map[feed.toLowerCase()] = String(asset);
      }
      (addresses as unknown as Record<string, Record<string, string>>)[name] = map;
    } else if (name in POLYGON_ADDRESSES) {
      if (typeof value !== 'string' || !ADDRESS.test(value))
        throw new InputError(configPath, 0, `${name} is not an address`);
      (addresses as unknown as Record<string, string>)[name] = value.toLowerCase();
    } else {
      throw new InputError(configPath, 0, `unknown contract ${name}`);
    }
  }
  // Every phase's aggregator of each configured proxy, as found over JSON-RPC; a config's priceFeeds entry wins.
  const found = readFeedAggregators(configPath);
  for (const [proxy, asset] of Object.entries(addresses.feedProxies))
    for (const aggregator of found[proxy] ?? []) addresses.priceFeeds[aggregator] ??= asset;
  return addresses;
}
