// The one read API over the folded state (engine/README.md, Data layout): the API and the CLI read positions,
// fills, markets, the cursor and block records through it, and nothing outside engine/state knows a key layout
// or a codec. Its parts, each a file: ids (readIds.ts), markets (marketReads.ts), fills (fillReads.ts), the board
// (boardReads.ts); here, the cursor, blocks, positions and the rest. Reads go to the memory-mapped state as it was
// last committed; iterators are lazy, so a route that stops early reads no further.
import type { Position } from '../reducers/position.js';
import { decodeWalletMove, walletMoveKey, type WalletMove } from './walletMove.js';
import type { FillPosition } from './storedFill.js';
import { assert } from '../assert.js';
import { ID_SPACE, type IdSpace } from '../log/idDictionary.js';
import { createBoardReads, type BoardReads } from './boardReads.js';
import { createFillReads, type FillReads } from './fillReads.js';
import {
  CURSOR_KEY,
  decodeBlockRecord,
  decodeFoldCursor,
  EMPTY_CURSOR,
  type BlockRecord,
  type FoldCursor,
} from './foldCursor.js';
import { createMarketReads, type MarketReads } from './marketReads.js';
import type { FeedAnswer, RoundReport } from './marketRecords.js';
import type { StateStore } from './openStateStore.js';
import { createIdReads, keyBytes, WALLET_TEXT } from './readIds.js';
import { readReadThrough, readSourceHead, type SourceHead } from './sourceHead.js';
import { readStreamPosition, type StreamPosition } from './streamPosition.js';
import { decodedOnChange } from './decodedOnChange.js';
import { BACKFILL_KEY, decodeBackfillRecord, type BackfillRecord } from './backfillRecord.js';
import { readSourceOutage, type SourceOutage } from './sourceOutage.js';
import { stateKeepsTrades } from './stateLayout.js';
import { decodePosition, decodeValue } from './stateCodec.js';
import { blockRecordKey, feedAnswerKey, roundReportKey, UNKNOWN_TOPIC_PREFIX, u32Key } from './stateKeys.js';
import { readLatestTagRun, readLatestTagRunNumber, readLatestTagRunSha, type TagRun } from './tagRuns.js';

export interface StateReader extends MarketReads, FillReads, BoardReads {
  /**
   * Reads on from the state a rewind moved into the store's directory, when one did (stateReplacement.ts); answers
   * how many times the store has been opened, which changes then: what a reader cached of the old state is stale.
   */
  followRewind(): number;
  /** The fold's cursor as last committed (decoded again only when a commit changed it). */
  cursor(): FoldCursor;
  /**
   * The state's backfill (engine/README.md, Backfill), null while it folds live: until its hand-off the owner-first
   * tables are stale (decoded again only when it changed).
   */
  backfill(): BackfillRecord | null;
  block(block: number): BlockRecord | null;
  /** Block records in block order, or newest first with `reverse`. */
  blocks(options?: { reverse?: boolean; limit?: number }): Iterable<BlockRecord>;
  /** The RPC source's finalized head, when an RPC ingest recorded one. */
  sourceHead(): SourceHead | null;
  /** The block the RPC ingest has read the chain through (every log up to it folded), null before one. */
  readThrough(): SourceHead | null;
  /** How far a replica has read its stream (streamPosition.ts), null for any other state. */
  streamPosition(): StreamPosition | null;
  /** The chain source's outage while its requests fail (sourceOutage.ts), null while it answers. */
  sourceOutage(): SourceOutage | null;
  /**
   * The wallet's positions in token order; with `held`, only those holding shares (a balance above 0), the others
   * skipped on their first stored number, undecoded. Null when it has more than `limit` positions, held or not
   * (counted in the same walk of its keys).
   */
  walletPositions(wallet: string, held?: boolean, limit?: number): Array<{ token: string; position: Position }> | null;
  /**
   * The wallet's splits, merges, redemptions and conversions (walletMove.ts) newest first, those before `before`
   * (block, log index) when given; none for a wallet the state never named or a state without the trade store.
   */
  walletMoves(wallet: string, before?: FillPosition | null): Iterable<WalletMove>;
  /**
   * Every wallet that holds a position, in address order, with its number of positions (read whole: tests and benches
   * pick wallets from it).
   */
  positionHolders(): Iterable<{ wallet: string; positions: number }>;
  /** The text of a state id, as fills' numbers name wallets (ID_SPACE.address) and markets (their marketSpace). */
  idText(space: number, id: number): string;
  /** False when the state was folded with the trade store off: it holds no fills. */
  keepsTrades(): boolean;
  /** The state's number for a wallet, token or condition (ID_SPACE), null when the log never named it. */
  idNumber(space: IdSpace, text: string): number | null;
  /**
   * Whole wallets' positions by ids, in wallet id order from `walletId`, at least `minPositions` of them when there
   * are.
   */
  positionsFrom(
    walletId: number,
    minPositions: number,
  ): Array<{ walletId: number; tokenId: number; position: Position }>;
  /** The latest wallet-tag run, null before the first. */
  latestTagRun(): TagRun | null;
  /** Its number alone, read without decoding the run. */
  latestTagRunNumber(): number | null;
  /** The sha256 of the latest run's bytes, null before the first. */
  latestTagRunSha(): string | null;
  /** The asset's last price-feed answer updated at or before `ts`, null when none is. */
  feedAnswerAt(asset: string, ts: number): FeedAnswer | null;
  /** A Protocol V2 round's reported prices by its question id. */
  roundReport(questionId: string): RoundReport | null;
  /** Logs of Protocol V2 contracts with a topic tally does not know, by topic0 (in topic order). */
  unknownTopics(): Record<string, number>;
}

const MAX_U32 = 0xffffffff;

export function createStateReader(store: StateStore): StateReader {
  const ids = createIdReads(store);
  const { idText, idOf } = ids;
  /** The fold's cursor as last committed, decoded again only when a commit changed it. */
  const foldCursor = decodedOnChange(() => store.dbs.meta.getBinary(CURSOR_KEY), decodeFoldCursor, EMPTY_CURSOR);

  /** The wallet's keys in the positions table, null for a wallet the state never named. */
  function walletRange(wallet: string): { start: Buffer; end: Buffer } | null {
    const id = WALLET_TEXT.test(wallet) ? idOf(ID_SPACE.address, wallet) : null;
    // The range ends at the next id's key: a u32 as well, for any id the fold could number.
    assert(id === null || id < MAX_U32, "a wallet's range ends at a wallet id");
    return id === null ? null : { start: keyBytes(u32Key(id)), end: keyBytes(u32Key(id + 1)) };
  }

  const backfill = decodedOnChange(
    () => store.dbs.meta.getBinary(BACKFILL_KEY),
    (bytes): BackfillRecord | null => decodeBackfillRecord(bytes),
    null,
  );

  function blockRecord(block: number): BlockRecord | null {
    const bytes =
      Number.isInteger(block) && block >= 0 && block <= MAX_U32
        ? store.dbs.blocks.getBinary(keyBytes(blockRecordKey(block)))
        : undefined;
    return bytes ? decodeBlockRecord(block, bytes) : null;
  }

  const markets = createMarketReads(store, ids);
  return {
    ...markets,
    ...createFillReads(store, ids, foldCursor, markets.marketLedgers),
    ...createBoardReads(store),
    followRewind() {
      const opened = store.opened;
      const followed = store.followReplacement();
      // Following a replacement is another opening: what readers cached of the old state goes with the count.
      assert(store.opened === opened + (followed ? 1 : 0), 'a rewind followed opens the store once more');
      return store.opened;
    },
    cursor: foldCursor,
    backfill,
    block: blockRecord,
    *blocks(options = {}) {
      let previous = options.reverse ? MAX_U32 + 1 : -1;
      for (const { key, value } of store.dbs.blocks.getRange({ reverse: options.reverse, limit: options.limit })) {
        const block = key.readUInt32BE(0);
        // Big-endian u32 keys: byte order is block order.
        assert(options.reverse ? block < previous : block > previous, 'block records run in block order');
        previous = block;
        yield decodeBlockRecord(block, value);
      }
    },
    sourceHead: () => readSourceHead(store),
    readThrough: () => readReadThrough(store),
    streamPosition: () => readStreamPosition(store),
    sourceOutage: () => readSourceOutage(store),
    walletPositions(wallet, held = false, limit = Number.MAX_SAFE_INTEGER) {
      const range = walletRange(wallet);
      if (range === null) return [];
      const positions: Array<{ token: string; position: Position }> = [];
      const walletId = range.start.readUInt32BE(0);
      // heldPositions reads the same keys as positions (a position holding nothing decodes as null): one walk
      // both counts the wallet's positions and reads the ones asked for.
      let count = 0;
      if (held) {
        for (const { key, value } of store.heldPositions.getRange(range)) {
          // positionKey: the wallet's id, then the token's; the range holds the wallet's keys only.
          assert(key.length === 8 && key.readUInt32BE(0) === walletId, "a wallet's range holds its positions");
          if (++count > limit) return null;
          if (value !== null) positions.push({ token: idText(ID_SPACE.token, key.readUInt32BE(4)), position: value });
        }
      } else {
        for (const { key, value } of store.dbs.positions.getRange(range)) {
          assert(key.length === 8 && key.readUInt32BE(0) === walletId, "a wallet's range holds its positions");
          if (++count > limit) return null;
          positions.push({ token: idText(ID_SPACE.token, key.readUInt32BE(4)), position: decodePosition(value) });
        }
      }
      // Token ids number tokens in fold order; answers list them in token order.
      return positions.sort((a, b) => (a.token < b.token ? -1 : 1));
    },
    *walletMoves(wallet, before = null) {
      const range = walletRange(wallet);
      if (range === null) return;
      const walletId = range.start.readUInt32BE(0);
      // Newest first from the next wallet's first key, or from `before`'s key, which is itself left out.
      const start = before === null ? range.end : keyBytes(walletMoveKey(walletId, before.block, before.logIndex));
      // Moves of one block share its time: read once a block.
      let tsBlock = -1;
      let ts = 0;
      const blockTs = (block: number) => {
        if (block !== tsBlock) {
          const record = blockRecord(block);
          // The fold writes a block's record in the commit that writes its moves.
          assert(record !== null, "a move's block has its record");
          [tsBlock, ts] = [block, record.ts];
        }
        return ts;
      };
      const marketText = (id: number) => idText(ID_SPACE.condition, id);
      for (const { key, value } of store.dbs.walletMoves.getRange({ start, end: range.start, reverse: true })) {
        const move = decodeWalletMove(key, value, marketText, blockTs);
        // walletMoveKey: the wallet's id first, so the range holds the wallet's moves only.
        assert(key.readUInt32BE(0) === walletId, "a wallet's range holds its moves");
        if (before !== null && move.block === before.block && move.logIndex === before.logIndex) continue;
        yield move;
      }
    },
    positionHolders() {
      const holders: Array<{ wallet: string; positions: number }> = [];
      let walletId = -1;
      for (const key of store.dbs.positions.getKeys({})) {
        const id = key.readUInt32BE(0);
        // Keyed wallet first: a wallet's positions are one run of keys.
        assert(id >= walletId, 'positions run in wallet id order');
        if (id === walletId) holders[holders.length - 1]!.positions++;
        else {
          walletId = id;
          holders.push({ wallet: idText(ID_SPACE.address, id), positions: 1 });
        }
      }
      return holders.sort((a, b) => (a.wallet < b.wallet ? -1 : 1));
    },
    idText: (space, id) => idText(space, id),
    keepsTrades: () => stateKeepsTrades(store),
    idNumber: idOf,
    positionsFrom(walletId, minPositions) {
      // The rollup's steps: from a wallet id on (0, then the one after the last), some positions at a time.
      assert(minPositions > 0, 'positions are read some at a time');
      const positions: Array<{ walletId: number; tokenId: number; position: Position }> = [];
      for (const { key, value } of store.dbs.positions.getRange({ start: keyBytes(u32Key(walletId)) })) {
        const id = key.readUInt32BE(0);
        assert(
          id >= walletId && (positions.length === 0 || id >= positions[positions.length - 1]!.walletId),
          'positions run in wallet id order from the first asked',
        );
        if (positions.length >= minPositions && id !== positions[positions.length - 1]!.walletId) break;
        positions.push({ walletId: id, tokenId: key.readUInt32BE(4), position: decodePosition(value) });
      }
      return positions;
    },
    latestTagRun: () => readLatestTagRun(store),
    latestTagRunNumber: () => readLatestTagRunNumber(store),
    latestTagRunSha: () => readLatestTagRunSha(store),
    unknownTopics() {
      const counts: Record<string, number> = {};
      const range = { start: UNKNOWN_TOPIC_PREFIX, end: UNKNOWN_TOPIC_PREFIX + '~' };
      for (const { key, value } of store.dbs.feedAnswers.getRange(range)) {
        const count = decodeValue<number>(value);
        // countUnknownTopic stores a count once it has seen the topic: 1 at least.
        assert(Number.isSafeInteger(count) && count > 0, 'an unknown topic is counted from 1');
        counts[String(key).slice(UNKNOWN_TOPIC_PREFIX.length)] = count;
      }
      return counts;
    },
    roundReport(questionId) {
      const bytes = store.dbs.feedAnswers.getBinary(roundReportKey(questionId));
      if (!bytes) return null;
      const report = decodeValue<RoundReport>(bytes);
      // putRoundReport keys a report by its own question id.
      assert(report.questionId === questionId, 'a round report is stored under its question');
      return report;
    },
    feedAnswerAt(asset, ts) {
      // Keys run asset, then the update time in fixed width, then the round: every round of `ts` sorts before ';'.
      const range = { start: feedAnswerKey(asset, ts, ';'), end: asset + ':', reverse: true, limit: 1 };
      for (const { value } of store.dbs.feedAnswers.getRange(range)) return decodeValue<FeedAnswer>(value);
      return null;
    },
  };
}
