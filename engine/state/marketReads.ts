// The state's market side through the read API (stateReader.ts): market records (a combo settled from its legs),
// tokens, neg-risk events, and a market's holders on both ledgers of a migrated market (docs/design.md 10).
import type { Position } from '../reducers/position.js';
import { assert } from '../assert.js';
import { settleCombo } from './comboResolution.js';
import { ID_SPACE } from '../log/idDictionary.js';
import {
  joinMarket,
  type MarketRecord,
  type NegRiskEventRecord,
  type StoredMark,
  type TokenRecord,
} from './marketRecords.js';
import type { StateStore } from './openStateStore.js';
import { decodePosition, decodeValue } from './stateCodec.js';
import { u32Key } from './stateKeys.js';
import { CONDITION_TEXT, keyBytes, type IdReads } from './readIds.js';

/**
 * A wallet that ever held a position in a market, with its position in each outcome (by outcome index); for a CTF
 * market with a Protocol V2 migration condition, its positions there too (`migrated`, by outcome index; null for
 * a market without one).
 */
export interface MarketHolder {
  wallet: string;
  positions: Array<Position | null>;
  migrated: Array<Position | null> | null;
}

export interface MarketReads {
  /** The token's market and outcome, or null while no condition explains it. */
  token(token: string): TokenRecord | null;
  /** The market record with its marks, or null for a condition the log never prepared. */
  market(conditionId: string): MarketRecord | null;
  /**
   * Every wallet that ever held a position in the market (or in its migration condition), in the order the fold
   * first numbered them.
   */
  marketHolders(conditionId: string): Iterable<MarketHolder>;
  /**
   * The condition ids of one market on both ledgers (docs/design.md 10: a migration condition's positions are its
   * legacy market's): [the CTF condition, its migration condition], whichever is asked; else [the id].
   */
  marketLedgers(conditionId: string): string[];
  /** A neg-risk event (its market id) with its questions, null while the log has not prepared it. */
  negRiskEvent(marketId: string): NegRiskEventRecord | null;
}

export function createMarketReads(store: StateStore, { idText, idOf }: IdReads): MarketReads {
  /** The stored identity alone: no marks joined, no combo settled (routes and fill scans ask it on every call). */
  function identity(conditionId: string): MarketRecord | null {
    const bytes = store.dbs.markets.getBinary(conditionId);
    if (!bytes) return null;
    const record = decodeValue<MarketRecord>(bytes);
    // putMarket keys a record by its own condition.
    assert(record.conditionId === conditionId, 'a market is stored under its condition');
    return record;
  }

  function ledgersOf(conditionId: string): string[] {
    const record = identity(conditionId);
    if (record?.migration) {
      // MigrationConditionRegistered names a Protocol V2 condition beside the CTF one, never the CTF one itself.
      assert(record.migration !== conditionId, 'a migration condition is another condition');
      return [conditionId, record.migration];
    }
    const legacy = record?.v2?.legacyConditionId;
    if (legacy && identity(legacy)?.migration === conditionId) return [legacy, conditionId];
    return [conditionId];
  }

  /** A position's key (positionKey's bytes), rewritten for each read: a market's holders are read by the hundred. */
  const legKey = Buffer.alloc(8);
  /** The positions of `walletId` in the outcomes of `tokenIds` (by outcome index). */
  function walletLegs(walletId: number, tokenIds: ReadonlyArray<number | null>): Array<Position | null> {
    legKey.writeUInt32BE(walletId, 0);
    return tokenIds.map((tokenId) => {
      if (tokenId === null) return null;
      legKey.writeUInt32BE(tokenId, 4);
      // The fast read's buffer is the store's, reused by its next read: decoded at once.
      const bytes = store.dbs.positions.getBinaryFast(legKey);
      return bytes ? decodePosition(bytes) : null;
    });
  }

  function marketRecord(conditionId: string): MarketRecord | null {
    const stored = identity(conditionId);
    if (!stored) return null;
    const marks = store.dbs.marketMarks.getBinary(conditionId);
    const record = joinMarket(stored, marks && decodeValue<[number, ...StoredMark[]]>(marks));
    // A combo's result is its legs': derived here, so every reader settles it alike.
    return record.v2?.legs ? settleCombo(record, marketRecord) : record;
  }

  return {
    token(token) {
      const bytes = store.dbs.tokens.getBinary(token);
      if (!bytes) return null;
      const record = decodeValue<TokenRecord>(bytes);
      // setTokens numbers a condition's tokens by their place among its outcomes.
      assert(
        Number.isInteger(record.outcomeIndex) && record.outcomeIndex >= 0,
        "a token is one of its market's outcomes",
      );
      return record;
    },
    market: marketRecord,
    *marketHolders(conditionId) {
      const [ctf, migration] = ledgersOf(conditionId).map((id) => {
        const stateId = CONDITION_TEXT.test(id) ? idOf(ID_SPACE.condition, id) : null;
        const tokens = marketRecord(id)?.tokens ?? null;
        assert(tokens === null || tokens.length === 2, "a market's tokens are its two outcomes");
        if (stateId === null || tokens === null) return null;
        return { stateId, tokenIds: tokens.map((token) => idOf(ID_SPACE.token, token)) };
      });
      const holders = (part: typeof ctf) =>
        part === null || part === undefined
          ? []
          : store.dbs.marketWallets
              .getKeys({ start: keyBytes(u32Key(part.stateId)), end: keyBytes(u32Key(part.stateId + 1)) })
              .map((key) => key.readUInt32BE(4));
      if (migration === undefined) {
        if (ctf === null || ctf === undefined) return;
        let previous = -1;
        for (const walletId of holders(ctf)) {
          // marketWalletKey: the condition's id, then the wallet's, each key written once.
          assert(walletId > previous, "a market's holders come in wallet id order, each once");
          previous = walletId;
          yield {
            wallet: idText(ID_SPACE.address, walletId),
            positions: walletLegs(walletId, ctf.tokenIds),
            migrated: null,
          };
        }
        return;
      }
      // Both ledgers: every wallet of either, in id order (as each index lists them).
      const walletIds = [...new Set([...holders(ctf), ...holders(migration)])].sort((a, b) => a - b);
      const none = [null, null];
      for (const walletId of walletIds)
        yield {
          wallet: idText(ID_SPACE.address, walletId),
          positions: ctf ? walletLegs(walletId, ctf.tokenIds) : none,
          migrated: migration ? walletLegs(walletId, migration.tokenIds) : none,
        };
    },
    marketLedgers: ledgersOf,
    negRiskEvent(marketId) {
      const bytes = store.dbs.negRiskEvents.getBinary(marketId);
      if (!bytes) return null;
      const record = decodeValue<NegRiskEventRecord>(bytes);
      // putNegRiskEvent keys an event by its own market id.
      assert(record.marketId === marketId, 'a neg-risk event is stored under its market id');
      return record;
    },
  };
}
