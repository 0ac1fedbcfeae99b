// Cached reads of what many answers share: each token's market and outcome (fixed once the token is registered),
// each market's record (valid for one generation: the fold cursor plus the off-chain revision) and its metadata
// and Market view (valid for one off-chain revision: a following fold moves the cursor several times a second).
// The server refreshes once per request, so a fold commit or an off-chain change, even by another process, drops
// the entries it outdates before any answer reads them. Within one turn of the event loop the generation is read
// once: lmdb-js reads every get of a turn from one read transaction (renewed at the turn's first get, reset by a
// timer), so a second read would see the same bytes; the requests a turn takes in share it.
import { v2IdWord } from '../engine/chain/v2ChainEvent.js';
import type { MarketMetadata } from '../engine/offchain/marketMetadata.js';
import {
  decodeRevision,
  offchainRevisionBytes,
  readMarketMetadata,
  type OffchainStore,
} from '../engine/offchain/openOffchainStore.js';
import { decodedOnChange } from '../engine/state/decodedOnChange.js';
import type { OffchainDigests } from '../engine/offchain/offchainDigest.js';
import { readOffchainDigests } from '../engine/offchain/offchainWrites.js';
import type { MarketRecord, TokenRecord } from '../engine/state/marketRecords.js';
import type { StateReader } from '../engine/state/stateReader.js';
import { marketView, type MarketView } from './marketView.js';
import { publicConditionId } from '../engine/valuation/publicConditionId.js';
import { MAX_CACHED_MARKETS, MAX_CACHED_TOKENS } from './apiLimits.js';

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
  /** The off-chain tables' content digests as of the last refresh (engine/offchain/offchainDigest.ts). */
  offchainDigests(): OffchainDigests;
  /** True while the state backfills, as of the last refresh: its owner-first tables are stale until the hand-off. */
  backfilling(): boolean;
  /**
   * A value made from this generation's state alone (an answer's part that every request of it repeats): made once
   * per generation under `name`.
   */
  perGeneration<T>(name: string, make: () => T): T;
  /** The token's market and outcome, or null while the token is unknown. */
  token(token: string): TokenRecord | null;
  /** A market id is a condition id; trades of unknown tokens sit under the token id and get an empty entry. */
  market(id: string): MarketEntry;
}

export function createStateReads(state: StateReader, offchain: OffchainStore): StateReads {
  let generation = '';
  let revision = 0;
  let digests: OffchainDigests | null = null;
  let backfilling = false;
  // Asked for by every request: decoded only when a key, metadata or profile change moved it.
  const offchainRevision = decodedOnChange(() => offchainRevisionBytes(offchain), decodeRevision, 0);
  let opened = 0;
  const tokens = new Map<string, TokenRecord>();
  const markets = new Map<string, MarketEntry>();
  /** Each market's metadata and view, by the id its metadata is kept under and whether it is neg-risk. */
  const described = new Map<string, Pick<MarketEntry, 'metadata' | 'view'>>();
  const made = new Map<string, unknown>();
  /**
   * Set by a turn's first refresh, cleared by a timer queued after its reads, so after lmdb-js's reset of the read
   * transaction they renewed.
   */
  let readThisTurn = false;
  const endTurn = () => {
    readThisTurn = false;
  };
  /** The generation read from the state and the off-chain store; the market entries dropped when it moved. */
  const read = (): void => {
    // A rewind replaces the state whole (tally rewind while serving): the new one is read from this request on,
    // under a generation of its own, and nothing cached of the old one survives (a rewound token may be unknown).
    const openedNow = state.followRewind();
    if (openedNow !== opened) {
      opened = openedNow;
      tokens.clear();
      described.clear();
    }
    const cursor = state.cursor();
    const revisionNow = offchainRevision();
    // A rollup changes the board's answers, and a tag run the tags answer, without moving the cursor (and the
    // run is written after the board): the board's tables, block, metadata digest and rules and the run's hash
    // count too (a day's run made again keeps its number). The tables alternate, so two rollups at one block leave
    // the same pair in use: the digest they read tells them apart (the same digest makes the same board).
    const board = state.board();
    const run = state.latestTagRunSha();
    // A hand-off changes the positions without moving the cursor.
    backfilling = state.backfill() !== null;
    const mode = backfilling ? 'b' : 'l';
    const now = `${opened}:${cursor.block}:${cursor.events}:${mode}:${revisionNow}:${board ? `${board.generation}:${board.block}:${board.metadata}:${board.rules ?? 0}` : '-'}:${run ?? '-'}`;
    if (now === generation) return;
    generation = now;
    if (revisionNow !== revision) {
      digests = null;
      described.clear();
    }
    revision = revisionNow;
    markets.clear();
    made.clear();
  };
  /** The metadata under `metadataId` (null: none to read) and the view made of it. */
  const describe = (metadataId: string | null, market: MarketRecord | null) => {
    const negRisk = market?.negRisk ?? false;
    const key = `${metadataId}:${negRisk}`;
    let description = described.get(key);
    if (description) return description;
    const metadata = metadataId === null ? null : readMarketMetadata(offchain, metadataId);
    description = { metadata, view: marketView(metadata, negRisk) };
    if (described.size >= MAX_CACHED_MARKETS) described.clear();
    described.set(key, description);
    return description;
  };
  return {
    refresh() {
      if (readThisTurn) return generation;
      read();
      readThisTurn = true;
      setTimeout(endTurn, 0);
      return generation;
    },
    offchainRevision: () => revision,
    offchainDigests: () => (digests ??= readOffchainDigests(offchain)),
    backfilling: () => backfilling,
    perGeneration<T>(name: string, make: () => T): T {
      if (made.has(name)) return made.get(name) as T;
      const value = make();
      made.set(name, value);
      return value;
    },
    token(token) {
      const cached = tokens.get(token);
      if (cached) return cached;
      const record = state.token(token);
      if (!record) return null;
      if (tokens.size >= MAX_CACHED_TOKENS) tokens.clear();
      tokens.set(token, record);
      return record;
    },
    market(id) {
      let entry = markets.get(id);
      if (entry) return entry;
      const isCondition = id.startsWith('0x');
      // A V2 condition named by its 62-hex id (as metadata and answers show it) is kept under its 32-byte word.
      const market = isCondition ? state.market(id.length === 64 ? v2IdWord(id) : id) : null;
      // A V2 condition's metadata is under the id answers show (its 62-hex id, or a migration's legacy id).
      entry = { market, ...describe(isCondition ? (market ? publicConditionId(market) : id) : null, market) };
      if (markets.size >= MAX_CACHED_MARKETS) markets.clear();
      markets.set(id, entry);
      return entry;
    },
  };
}
