// The board's rollup (docs/design.md 4): every wallet's market results and lifetime rows by category, as of the
// fold's last committed block, written into the tables readers are not using. A pure function of the state and
// the market metadata (categories), so a state replayed to block N rolls up to the same board as the live one.
import { ID_SPACE } from '../log/idDictionary.js';
import { readMarketMetadata, type OffchainStore } from '../offchain/openOffchainStore.js';
import { digestHex } from '../offchain/offchainDigest.js';
import { readOffchainDigests } from '../offchain/offchainWrites.js';
import { createBoardWriter, type BoardInfo } from '../state/boardTables.js';
import type { MarketRecord } from '../state/marketRecords.js';
import type { StateStore } from '../state/openStateStore.js';
import { createStateReader, type StateReader } from '../state/stateReader.js';
import { marketCategory, OTHER } from './boardCategories.js';
import { BOARD_RULES, LIFETIME, sumResults } from './boardRow.js';
import { marketResult, type MarketLeg, type MarketResult } from './marketResult.js';
import { packResults } from './resultTable.js';
import { ROLLUP_STEP_POSITIONS } from '../limits.js';

export interface RolledBoard {
  info: BoardInfo;
  built: boolean;
}

/** Where a token's positions are summed: its market's key, outcome, record and category. */
/**
 * Where a token's position is summed (`space`, `id`: its market, the legacy CTF market for a migration condition's
 * token) and the record that settles and marks it (`market`: its own condition's).
 */
interface TokenMarket {
  space: number;
  id: number;
  outcomeIndex: number;
  market: MarketRecord | null;
  category: number;
}

/**
 * Rolls the board up as of the state's cursor; null when the state has folded no block yet. A board already as
 * of this block and metadata, by today's rules, is the same board: it is kept (`built` false), unless
 * `always`.
 */
export function rollupBoard(
  store: StateStore,
  offchain: OffchainStore,
  options: { always?: boolean } = {},
): RolledBoard | null {
  const reader = createStateReader(store);
  const block = reader.cursor().block;
  const record = block >= 0 ? reader.block(block) : null;
  if (record === null) return null;
  const metadata = digestHex(readOffchainDigests(offchain).metadata);
  const current = reader.board();
  if (!options.always && isBoardCurrent(current, block) && current!.metadata === metadata)
    return { info: current!, built: false };
  const tokenMarket = createTokenMarkets(reader, offchain);
  const writer = createBoardWriter(store);
  let wallets = 0;
  let results = 0;
  let next = 0;
  for (;;) {
    const positions = reader.positionsFrom(next, ROLLUP_STEP_POSITIONS);
    if (positions.length === 0) break;
    let start = 0;
    for (let i = 1; i <= positions.length; i++) {
      if (i < positions.length && positions[i]!.walletId === positions[start]!.walletId) continue;
      const walletId = positions[start]!.walletId;
      const walletResults = rollupWallet(positions.slice(start, i), tokenMarket);
      const table = packResults(walletResults);
      writer.putWallet(walletId, table, sumResults(table, LIFETIME));
      wallets++;
      results += walletResults.length;
      start = i;
    }
    next = positions[positions.length - 1]!.walletId + 1;
  }
  return {
    info: writer.finish({ block, asOf: record.ts, metadata, rules: BOARD_RULES, wallets, results }),
    built: true,
  };
}

/** True when `board` is as of `block` and summed by today's rules. */
export function isBoardCurrent(board: BoardInfo | null, block: number): boolean {
  return board !== null && board.block === block && board.rules === BOARD_RULES;
}

function createTokenMarkets(reader: StateReader, offchain: OffchainStore): (tokenId: number) => TokenMarket {
  const tokens = new Map<number, TokenMarket>();
  const markets = new Map<string, { id: number | null; market: MarketRecord | null; category: number }>();
  return (tokenId) => {
    let found = tokens.get(tokenId);
    if (found) return found;
    const token = reader.token(reader.idText(ID_SPACE.token, tokenId));
    if (token === null) {
      found = { space: ID_SPACE.token, id: tokenId, outcomeIndex: -1, market: null, category: OTHER };
    } else {
      let entry = markets.get(token.conditionId);
      if (!entry) {
        const market = reader.market(token.conditionId);
        // A migration condition's positions are its legacy market's (docs/design.md 10), when the state has that
        // market.
        const legacy = market?.v2?.legacyConditionId ?? null;
        const summedUnder =
          legacy !== null && reader.market(legacy)?.migration === token.conditionId ? legacy : token.conditionId;
        const category = marketCategory(readMarketMetadata(offchain, summedUnder)?.category ?? null);
        entry = { id: reader.idNumber(ID_SPACE.condition, summedUnder), market, category };
        markets.set(token.conditionId, entry);
      }
      // A condition the state has no id for: every event on its tokens came before the log explained them (a
      // capture that stops before anything names the market again), so its results are keyed by token, each
      // still settled and valued by the market.
      found =
        entry.id === null
          ? {
              space: ID_SPACE.token,
              id: tokenId,
              outcomeIndex: token.outcomeIndex,
              market: entry.market,
              category: entry.category,
            }
          : {
              space: ID_SPACE.condition,
              id: entry.id,
              outcomeIndex: token.outcomeIndex,
              market: entry.market,
              category: entry.category,
            };
    }
    tokens.set(tokenId, found);
    return found;
  };
}

/** One wallet's market results, in market key order (space, then id). */
function rollupWallet(
  positions: ReadonlyArray<{ tokenId: number; position: MarketLeg['position'] }>,
  tokenMarket: (tokenId: number) => TokenMarket,
): MarketResult[] {
  // Sorted by market, then grouped: a map keyed by space and id would hash numbers past 2^31 (slow in V8).
  const placed = positions.map(({ tokenId, position }) => ({ at: tokenMarket(tokenId), position }));
  placed.sort((a, b) => a.at.space - b.at.space || a.at.id - b.at.id);
  const results: MarketResult[] = [];
  for (let start = 0; start < placed.length; ) {
    const { at } = placed[start]!;
    let end = start + 1;
    while (end < placed.length && placed[end]!.at.space === at.space && placed[end]!.at.id === at.id) end++;
    const legs: MarketLeg[] = [];
    for (let i = start; i < end; i++)
      legs.push({
        position: placed[i]!.position,
        outcomeIndex: placed[i]!.at.outcomeIndex,
        market: placed[i]!.at.market,
      });
    results.push(marketResult(at.space, at.id, at.category, legs));
    start = end;
  }
  return results;
}
