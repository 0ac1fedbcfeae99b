// Contract addresses: the Polygon defaults, overridden by an optional JSON config file in the data directory
// ({ "addresses": { "ctfExchange": "0x...", "priceFeeds": { "0xfeed": "BTC" } } }).
import { readConfigFile } from '../foldOptions.js';
import { InputError } from '../inputError.js';
import { POLYGON_ADDRESSES, type VenueAddresses } from './venueAddresses.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export function loadVenueAddresses(configPath: string): VenueAddresses {
  const config = readConfigFile(configPath) as { addresses?: Record<string, unknown> } | null;
  if (config === null) return POLYGON_ADDRESSES;
  const addresses: VenueAddresses = { ...POLYGON_ADDRESSES, priceFeeds: { ...POLYGON_ADDRESSES.priceFeeds } };
  for (const [name, value] of Object.entries(config.addresses ?? {})) {
    if (name === 'priceFeeds') {
      for (const [feed, asset] of Object.entries(value as Record<string, string>)) {
        if (!ADDRESS.test(feed)) throw new InputError(configPath, 0, `priceFeeds key ${feed} is not an address`);
        addresses.priceFeeds[feed.toLowerCase()] = String(asset);
      }
    } else if (name in POLYGON_ADDRESSES) {
      if (typeof value !== 'string' || !ADDRESS.test(value))
        throw new InputError(configPath, 0, `${name} is not an address`);
      (addresses as unknown as Record<string, string>)[name] = value.toLowerCase();
    } else {
      throw new InputError(configPath, 0, `unknown contract ${name}`);
    }
  }
  return addresses;
}
