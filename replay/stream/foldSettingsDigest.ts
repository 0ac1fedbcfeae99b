// What a replica must share with its publisher to fold a frame into the same state: the venue's contract addresses
// and the fold options (config.json). Carried on every frame chunk, so a replica set up otherwise refuses at the
// first frame instead of serving other numbers.
import { createHash } from 'node:crypto';
import type { VenueAddresses } from '../../engine/chain/venueAddresses.js';
import type { FoldOptions } from '../../engine/foldOptions.js';

/** JSON with every object's keys in order, so equal settings give equal text whatever order config.json used. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** 16 hex digits of the sha256 of the settings. */
export function foldSettingsDigest(addresses: VenueAddresses, options: FoldOptions): string {
  return createHash('sha256').update(canonicalJson({ addresses, options })).digest('hex').slice(0, 16);
}
