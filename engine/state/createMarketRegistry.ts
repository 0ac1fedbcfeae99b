// The market registry of the fold's main thread: records cached in memory, loaded from LMDB on a miss, and
// every change routed into the current block's writes. The cache is only a cache: anything it holds is either
// committed or in a batch being committed. Between batches, a cache grown large becomes the aged generation and
// starts again empty; a record found in the aged one comes back (the markets trading now trade on), so a trim
// does not make the next batches read every active market again (0.3 µs a log of the main thread at 10M fills).
import type { MarketRegistry } from './marketRegistry.js';
import type { BlockWrites } from './blockWrites.js';
import {
  joinMarket,
  marketIdentity,
  marketMarks,
  type MarketRecord,
  type NegRiskEventRecord,
  type PoolRecord,
  type TokenRecord,
} from './marketRecords.js';
import type { StateStore } from './openStateStore.js';
import type { StateDbName } from './stateDbNames.js';
import { decodeValue } from './stateCodec.js';
import { feedAnswerKey, roundReportKey, unknownTopicKey } from './stateKeys.js';
import { assert } from '../assert.js';
import { MARKET_CACHE_LIMIT } from '../limits.js';

export interface StoredMarketRegistry extends MarketRegistry {
  /** Starts a batch; returns its number, which `committed` takes once the batch is written. */
  startBatch(): number;
  /** Routes the following changes into this block's writes. */
  startBlock(writes: BlockWrites): void;
  /** Batches up to `batch` are written: their records are in LMDB now. */
  committed(batch: number): void;
  /**
   * Empties each cache grown past its limit, except the records of batches not yet written (LMDB lacks them);
   * `all`: every record, after an abandoned batch.
   */
  trim(all?: boolean): void;
}

export function createMarketRegistry(store: StateStore): StoredMarketRegistry {
  const caches = {
    markets: new Map<string, MarketRecord>(),
    tokens: new Map<string, TokenRecord>(),
    negRiskEvents: new Map<string, NegRiskEventRecord>(),
    pools: new Map<string, PoolRecord>(),
    unknownTopics: new Map<string, number>(),
  };
  let writes: BlockWrites | null = null;
  let batch = 0;
  /** The last batch `committed` was told of: batches are written in the order they started. */
  let committedUpTo = 0;
  /** Per cache, the keys saved by batches not yet written, with the last such batch. */
  const pending = new Map<Map<string, unknown>, Map<string, number>>(
    Object.values(caches).map((cache) => [cache, new Map()]),
  );
  /** Per cache, what it held before its last trim. */
  const aged = new Map<Map<string, unknown>, Map<string, unknown>>(
    Object.values(caches).map((cache) => [cache, new Map()]),
  );

  /** A cached record, from the aged generation too (then cached again). */
  function cached<T>(cache: Map<string, T>, key: string): T | undefined {
    const record = cache.get(key);
    if (record !== undefined) return record;
    const generation = aged.get(cache);
    // `aged` and `pending` are built over the same caches.
    assert(generation !== undefined, 'every registry cache has an aged generation');
    const old = generation.get(key) as T | undefined;
    if (old !== undefined) cache.set(key, old);
    return old;
  }

  function load<T>(db: keyof typeof caches & StateDbName, key: string): T | undefined {
    // A market is two values: loadMarket joins its marks, a plain load would cache it without them.
    assert(db !== 'markets', 'markets are loaded with their marks');
    const cache = caches[db] as Map<string, T>;
    const found = cached(cache, key);
    if (found !== undefined) return found;
    const bytes = store.dbs[db].getBinary(key);
    if (bytes === undefined) return undefined;
    const record = decodeValue<T>(bytes);
    cache.set(key, record);
    return record;
  }
  function save<T>(
    cache: Map<string, T>,
    db: StateDbName,
    key: string,
    record: T,
    view?: (record: T) => unknown,
  ): void {
    // A batch's number tells `committed` which records LMDB holds: a save outside one would never be released.
    assert(batch > 0, 'the market registry is written inside a batch');
    cache.set(key, record);
    pending.get(cache)!.set(key, batch);
    assert(writes, 'the market registry is written inside a block');
    writes.putRecord(db, key, record, view);
  }
  function loadMarket(conditionId: string): MarketRecord | undefined {
    const found = cached(caches.markets, conditionId);
    if (found !== undefined) return found;
    const bytes = store.dbs.markets.getBinary(conditionId);
    if (bytes === undefined) return undefined;
    const marks = store.dbs.marketMarks.getBinary(conditionId);
    const record = joinMarket(decodeValue<MarketRecord>(bytes), marks && decodeValue(marks));
    // putMarket and putMarks key a market by its own condition.
    assert(record.conditionId === conditionId, 'a market is stored under its condition');
    caches.markets.set(conditionId, record);
    return record;
  }

  return {
    startBatch: () => ++batch,
    startBlock(blockWrites) {
      assert(batch > 0, 'blocks are derived inside a batch');
      writes = blockWrites;
    },
    committed(upTo) {
      // Each batch is written once, in the order batches started.
      assert(upTo > committedUpTo && upTo <= batch, 'a batch committed is the next one started');
      committedUpTo = upTo;
      for (const keys of pending.values()) for (const [key, last] of keys) if (last <= upTo) keys.delete(key);
    },
    trim(all = false) {
      for (const cache of Object.values(caches) as Map<string, unknown>[]) {
        const keys = pending.get(cache)!;
        if (all) {
          cache.clear();
          aged.get(cache)!.clear();
          keys.clear();
        } else if (cache.size > MARKET_CACHE_LIMIT) {
          aged.set(cache, new Map(cache));
          const kept = [...keys.keys()].map((key) => [key, cache.get(key)] as const);
          cache.clear();
          for (const [key, record] of kept) cache.set(key, record);
        }
        // A save caches what it marks pending, and a trim keeps it: LMDB lacks it until its batch is written.
        assert(keys.size <= cache.size, 'a trim keeps every record of a batch not yet written');
      }
    },
    market: loadMarket,
    putMarket: (record) => save(caches.markets, 'markets', record.conditionId, record, marketIdentity),
    putMarks: (record) => save(caches.markets, 'marketMarks', record.conditionId, record, marketMarks),
    token: (token) => load<TokenRecord>('tokens', token),
    putToken: (token, record) => save(caches.tokens, 'tokens', token, record),
    negRiskEvent: (marketId) => load<NegRiskEventRecord>('negRiskEvents', marketId),
    putNegRiskEvent: (record) => save(caches.negRiskEvents, 'negRiskEvents', record.marketId, record),
    pool: (address) => load<PoolRecord>('pools', address),
    putPool: (record) => save(caches.pools, 'pools', record.pool, record),
    countUnknownTopic(topic0) {
      const key = unknownTopicKey(topic0);
      const counts = caches.unknownTopics;
      let count = cached(counts, key);
      if (count === undefined) {
        const bytes = store.dbs.feedAnswers.getBinary(key);
        count = bytes ? decodeValue<number>(bytes) : 0;
      }
      assert(Number.isSafeInteger(count) && count >= 0, 'an unknown topic count is a count');
      save(counts, 'feedAnswers', key, count + 1);
    },
    putRoundReport(report) {
      assert(writes, 'the market registry is written inside a block');
      writes.putRecord('feedAnswers', roundReportKey(report.questionId), report);
    },
    putFeedAnswer(answer) {
      assert(writes, 'the market registry is written inside a block');
      writes.putRecord('feedAnswers', feedAnswerKey(answer.asset, answer.updatedAt, answer.roundId), answer);
    },
  };
}
