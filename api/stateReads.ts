// Cached reads of what many answers share: each token's market and outcome (fixed once the token is registered)
// and each market's record, metadata and Market view (valid for one generation: the fold cursor plus the
// off-chain revision). The server refreshes once per request, so a fold commit or an off-chain change, even by
// another process, drops the market entries before any answer reads them.
import type { MarketMetadata } from '../engine/offchain/marketMetadata.js';
import { REVISION_KEY, type OffchainStore } from '../engine/offchain/openOffchainStore.js';
import { joinMarket, type MarketRecord, type TokenRecord } from '../engine/state/marketRecords.js';
import type { StateStore } from '../engine/state/openStateStore.js';
import { decodeValue } from '../engine/state/stateCodec.js';
import { CURSOR_KEY } from '../engine/fold/createFoldRunner.js';
import { marketView, readMarketMetadata, type MarketView } from './marketView.js';

export interface MarketEntry {
  market: MarketRecord | null;
  metadata: MarketMetadata | null;
  view: MarketView;
}

export interface StateReads {
  /** Reads the generation and drops entries an earlier one cached; returns it (answers are cached under it). */
  refresh(): string;
  /** The off-chain revision as of the last refresh (keys, metadata and profiles change it). */
  offchainRevision(): number;
  /** The token's market and outcome, or null while the token is unknown. */
  token(token: string): TokenRecord | null;
  /** A market id is a condition id; trades of unknown tokens sit under the token id and get an empty entry. */
  market(id: string): MarketEntry;
}

// Bounds on the caches: past them a cache starts over (cheaper than tracking recency on every hit).
const MAX_TOKENS = 400_000;
const MAX_MARKETS = 100_000;
const NONE: Buffer = Buffer.alloc(0);

export function createStateReads(store: StateStore, offchain: OffchainStore): StateReads {
  let generation = '';
  let revision = 0;
  // The raw bytes of the cursor and the revision: a refresh that finds them unchanged decodes nothing.
  let cursorBytes = NONE;
  let revisionBytes = NONE;
  const tokens = new Map<string, TokenRecord>();
  const markets = new Map<string, MarketEntry>();
  // A read-only open of a store that predates the revision has no meta database.
  const offchainMeta = offchain.meta as typeof offchain.meta | undefined;
  return {
    refresh() {
      const cursorNow = store.dbs.meta.getBinary(CURSOR_KEY) ?? NONE;
      const revisionNow = offchainMeta?.getBinary(REVISION_KEY) ?? NONE;
      const cursorSame = cursorNow.equals(cursorBytes);
      const revisionSame = revisionNow.equals(revisionBytes);
      cursorBytes = cursorNow;
      revisionBytes = revisionNow;
      if (cursorSame && revisionSame && generation !== '') return generation;
      revision = revisionBytes.length ? decodeValue<number>(revisionBytes) : 0;
      const cursor = cursorBytes.length ? decodeValue<{ block: number; events: number }>(cursorBytes) : { block: -1, events: 0 };
      generation = `${cursor.block}:${cursor.events}:${revision}`;
      markets.clear();
      return generation;
    },
    offchainRevision: () => revision,
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
      const marks = bytes ? store.dbs.marketMarks.getBinary(id) : undefined;
      const market = bytes ? joinMarket(decodeValue<MarketRecord>(bytes), marks && decodeValue(marks)) : null;
      const metadata = isCondition ? readMarketMetadata(offchain, id) : null;
      entry = { market, metadata, view: marketView(metadata, market?.negRisk ?? false) };
      if (markets.size >= MAX_MARKETS) markets.clear();
      markets.set(id, entry);
      return entry;
    },
  };
}
