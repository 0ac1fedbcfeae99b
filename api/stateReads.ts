// Cached reads of what many answers share: each token's market and outcome (fixed once the token is registered)
// and each market's record, metadata and Market view (valid for one generation: the fold cursor plus the
// off-chain revision). The server refreshes once per request, so a fold commit or a metadata load, even by
// another process, drops the market entries before any answer reads them.
import type { MarketMetadata } from '../engine/offchain/marketMetadata.js';
import { readOffchainRevision, type OffchainStore } from '../engine/offchain/openOffchainStore.js';
import type { MarketRecord, TokenRecord } from '../engine/state/marketRecords.js';
import type { StateStore } from '../engine/state/openStateStore.js';
import { decodeValue } from '../engine/state/stateCodec.js';
import { readFoldCursor } from '../engine/fold/createFoldRunner.js';
import { marketView, readMarketMetadata, type MarketView } from './marketView.js';

export interface MarketEntry {
  market: MarketRecord | null;
  metadata: MarketMetadata | null;
  view: MarketView;
}

export interface StateReads {
  /** Reads the generation and drops entries an earlier one cached; returns it (answers are cached under it). */
  refresh(): string;
  /** The token's market and outcome, or null while the token is unknown. */
  token(token: string): TokenRecord | null;
  /** A market id is a condition id; trades of unknown tokens sit under the token id and get an empty entry. */
  market(id: string): MarketEntry;
}

// Bounds on the caches: past them a cache starts over (cheaper than tracking recency on every hit).
const MAX_TOKENS = 400_000;
const MAX_MARKETS = 100_000;

export function createStateReads(store: StateStore, offchain: OffchainStore): StateReads {
  let generation = '';
  const tokens = new Map<string, TokenRecord>();
  const markets = new Map<string, MarketEntry>();
  return {
    refresh() {
      const cursor = readFoldCursor(store);
      const next = `${cursor.block}:${cursor.events}:${readOffchainRevision(offchain)}`;
      if (next !== generation) {
        generation = next;
        markets.clear();
      }
      return generation;
    },
    token(token) {
      const cached = tokens.get(token);
      if (cached) return cached;
      const bytes = store.dbs.tokens.getBinary(token);
      if (!bytes) return null;
      if (tokens.size >= MAX_TOKENS) tokens.clear();
      const record = decodeValue<TokenRecord>(bytes);
      tokens.set(token, record);
      return record;
    },
    market(id) {
      let entry = markets.get(id);
      if (entry) return entry;
      const isCondition = id.startsWith('0x');
      const bytes = isCondition ? store.dbs.markets.getBinary(id) : undefined;
      const market = bytes ? decodeValue<MarketRecord>(bytes) : null;
      const metadata = isCondition ? readMarketMetadata(offchain, id) : null;
      entry = { market, metadata, view: marketView(metadata, market?.negRisk ?? false) };
      if (markets.size >= MAX_MARKETS) markets.clear();
      markets.set(id, entry);
      return entry;
    },
  };
}
