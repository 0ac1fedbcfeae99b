// A wallet-fold worker (piscina): folds one partition of wallets' position events in chain order and returns,
// per block, the bytes of every position that block touched. Positions come from a worker-local cache or the
// memory-mapped state; the main thread writes the results, so this worker never writes LMDB.
import { existsSync } from 'node:fs';
import { Piscina } from 'piscina';
import { foldPositionEvent, type PositionBook } from '../reducers/foldPositionEvent.js';
import { createPosition, OPEN_THRESHOLD_MICROS, type Position } from '../reducers/position.js';
import { createPositionTable, NO_ROW } from './positionTable.js';
import { POSITION_EVENT, type PositionEvent } from '../reducers/positionEvent.js';
import { openStateStore, type StateStore } from '../state/openStateStore.js';
import { decodePosition } from '../state/stateCodec.js';
import { backfillPositionKey, marketWalletKey, positionKey } from '../state/stateKeys.js';
import { ID_SPACE, type IdCounts, type IdSpace } from '../log/idDictionary.js';
import { createPairFilter, type PairFilter } from './pairFilter.js';
import { assert } from '../assert.js';
import { NO_MARKET, readPositionRecords } from './positionRecords.js';
import { openTransferSlots } from './transferSlots.js';
import { createWalletFoldResult, type WalletFoldResult, type WalletFoldTask } from './walletFoldTask.js';

const stores = new Map<string, StateStore>();
const keyBytes = (key: string) => Buffer.from(key, 'latin1');

/** A row's market before it is stored: none to add (the state holds the position). */
const STORED = -2;
/**
 * The positions this worker keeps between tasks (positionTable.ts), with per row: the last block whose flush
 * included it, the last task that wrote it and where in that task's answer (its last write, the one to put), and
 * while it was created here and not yet stored its market as of the latest event that named it (NO_MARKET unknown;
 * STORED once stored: storing it adds its market -> wallet index key).
 */
const cache = createPositionTable((table, row) => {
  // add numbers rows densely: the row set up is the newest.
  assert(row === table.size - 1, 'wallet fold: a row is set up as it is added');
  table.touchedBlock.set(row, -1);
  table.writtenIn.set(row, 0);
  table.lastWrite.set(row, -1);
  table.freshMarket.set(row, STORED);
});
/** The positions handed to the reducers, one per row a block touches: reused, never collected. */
const checkedOut: Position[] = [];
/**
 * Market -> wallet index keys this worker emitted, by block: a key of a block not yet committed is not in the
 * state either, and emitting it twice would change the checksum of the block that repeats it.
 */
const emitted = new Map<string, number>();
let cacheEpoch = -1;
let taskNumber = 0;
/**
 * What the state may hold without a lookup: a key naming only ids the state had when this thread's first task came
 * may have been stored before this thread; any other only if this thread stored it (the filters' "no" is certain).
 * A fold from an empty state thus looks up only positions it stored and evicted from the cache.
 */
let firstIds: IdCounts | null = null;
const positionsStored = createPairFilter();
const indexKeysStored = createPairFilter();

/**
 * A stored position's bytes. While the state backfills, what it folded since the backfill began is in the working
 * table, and older positions in `positions`.
 */
function readPosition(store: StateStore, backfill: boolean, walletId: number, tokenId: number): Buffer | undefined {
  // mayBeStored let only committed ids through: state ids, u32s.
  assert(walletId >= 0 && tokenId >= 0, 'wallet fold: a stored position is read by its ids');
  if (backfill) {
    const bytes = store.dbs.backfillPositions.getBinary(keyBytes(backfillPositionKey(tokenId, walletId)));
    if (bytes) return bytes;
  }
  return store.dbs.positions.getBinary(keyBytes(positionKey(walletId, tokenId)));
}

/** Token first, then wallet: the working table's order. */
const byToken = (a: number, b: number) => cache.token(a) - cache.token(b) || cache.wallet(a) - cache.wallet(b);
/** Wallet first, then token: positions' key order. */
const byKey = (a: number, b: number) => cache.wallet(a) - cache.wallet(b) || cache.token(a) - cache.token(b);

/** The market of `token` as the event that names it knew it. */
function marketOf(event: PositionEvent<number>, token: number): number {
  // positionRecords wrote the event's market as a state id, or NO_MARKET where derive knew none ('').
  assert(event.market >= NO_MARKET, "wallet fold: an event's market is an id or none");
  if (event.kind === POSITION_EVENT.restructure) {
    const burned = event.burnTokens.indexOf(token);
    return burned >= 0 ? event.burnMarkets[burned]! : (event.mintMarkets[event.mintTokens.indexOf(token)] ?? NO_MARKET);
  }
  if ((event.kind === POSITION_EVENT.split || event.kind === POSITION_EVENT.merge) && event.markets.length > 0)
    return event.markets[event.tokens.indexOf(token)] ?? NO_MARKET;
  if (event.kind !== POSITION_EVENT.conversion) return event.market;
  const no = event.noTokens.indexOf(token);
  return no >= 0 ? event.noMarkets[no]! : (event.yesMarkets[event.yesTokens.indexOf(token)] ?? NO_MARKET);
}

/**
 * Between tasks, when the cache is full. Only positions the state already holds can go: a position an earlier
 * task changed in a block after `committedBlock` is still being written, and the state holds an older version
 * of it. Closed ones (below the open threshold, as after a full sale, a merge or a redemption) are the least
 * likely to trade again; if they are too few to free a quarter of the cache, the committed ones touched longest ago
 * go, down to half the limit. Keeping the recent ones matters past 10M fills: emptied of every committed position,
 * the cache read the state back for 1.3 µs a log (the wallet worker's CPU profile at 10M fills).
 */
function trimCache(limit: number, committedBlock: number): void {
  const written = (row: number) => cache.touchedBlock.get(row) <= committedBlock;
  cache.retain((row) => !(written(row) && cache.shares(row) < OPEN_THRESHOLD_MICROS));
  if (cache.size <= limit * 0.75) return;
  const blocks: number[] = [];
  for (let row = 0; row < cache.size; row++) if (written(row)) blocks.push(cache.touchedBlock.get(row));
  const drop = Math.min(blocks.length, cache.size - Math.floor(limit / 2));
  if (drop <= 0) return;
  // The last block of the rows to drop: a row touched after it stays (ties at it go, so at least `drop` go).
  const cutoff = Float64Array.from(blocks).sort()[drop - 1]!;
  const before = cache.size;
  const uncommitted = cache.size - blocks.length;
  cache.retain((row) => !written(row) || cache.touchedBlock.get(row) > cutoff);
  // Only positions the state holds go (the others are still being written), and at least `drop` of them.
  assert(cache.size >= uncommitted && cache.size <= before - drop, 'wallet fold: a trim drops committed positions');
}

function storeFor(dir: string): StateStore {
  let store = stores.get(dir);
  if (!store) {
    // lmdb-js makes a missing directory even to read it: a scratch state a signal has just removed (verify, rewind)
    // would come back, so a worker never opens one that is gone.
    assert(existsSync(dir), `wallet fold: the state directory ${dir} exists`);
    stores.set(dir, (store = openStateStore({ dir, readOnly: true, randomReads: true })));
  }
  return store;
}

/** Closes this thread's state stores, so the fold's main thread can release the map (see StateStore.reopen). */
export async function releaseStores(): Promise<void> {
  for (const [dir, store] of stores) {
    stores.delete(dir);
    await store.close();
  }
  // The main thread reopens the map once every thread has closed its stores: none may be left open here.
  assert(stores.size === 0, "wallet fold: a release closes every one of the thread's stores");
}

export default function foldWalletPartition(task: WalletFoldTask): WalletFoldResult {
  // The task the fold runner built (foldWallets): its records a buffer of f64s, its limits positive.
  assert(task.recordLength >= 0 && task.recordLength * 8 <= task.records.byteLength, 'wallet fold: records fit');
  assert(task.cacheLimit > 0 && task.slotCount >= 0, "wallet fold: a task's limits are counts");
  // A runner's epoch only goes up (abandon), and this thread folds for one runner: an older one would reuse the
  // cache of batches it never knew.
  assert(task.epoch >= cacheEpoch, 'wallet fold: epochs never go back');
  const store = storeFor(task.stateDir);
  store.env.resetReadTxn();
  if (task.epoch !== cacheEpoch) {
    cache.clear();
    emitted.clear();
  } else if (cache.size > task.cacheLimit) {
    trimCache(task.cacheLimit, task.committedBlock);
  }
  cacheEpoch = task.epoch;
  for (const [key, block] of emitted) if (block <= task.committedBlock) emitted.delete(key);
  const storedIds = task.storedIds;
  const before = (firstIds ??= [...storedIds]);
  // The committed counts only grow: an id older than this thread's first task stays committed.
  assert(
    storedIds[0] >= before[0] && storedIds[1] >= before[1] && storedIds[2] >= before[2],
    "wallet fold: the state's ids only grow",
  );
  /**
   * Whether the state may hold the key of ids `a` and `b` (of the spaces given): both committed, and either both
   * older than this thread or stored by it (`filter`).
   */
  const mayBeStored = (filter: PairFilter, a: number, aSpace: IdSpace, b: number, bSpace: IdSpace) =>
    a < storedIds[aSpace]! &&
    b < storedIds[bSpace]! &&
    ((a < before[aSpace]! && b < before[bSpace]!) || filter.mayHold(a, b));
  const events = readPositionRecords(task.records, task.recordLength);
  const channel = openTransferSlots(task.slots, task.slotCount);
  /** The rows the current block touched. */
  let touched: number[] = [];
  let current: PositionEvent<number> | null = null;
  let block = -1;
  const book: PositionBook<number> = {
    position(walletId, tokenId) {
      let row = cache.find(walletId, tokenId);
      if (row === NO_ROW) {
        const bytes = mayBeStored(positionsStored, walletId, ID_SPACE.address, tokenId, ID_SPACE.token)
          ? readPosition(store, task.backfill, walletId, tokenId)
          : undefined;
        row = cache.add(walletId, tokenId);
        if (bytes) cache.write(row, decodePosition(bytes));
        else cache.freshMarket.set(row, NO_MARKET);
      }
      if (cache.freshMarket.get(row) !== STORED) {
        const market = marketOf(current!, tokenId);
        if (market !== NO_MARKET) cache.freshMarket.set(row, market);
      }
      if (cache.touchedBlock.get(row) !== block) {
        cache.touchedBlock.set(row, block);
        const at = touched.length;
        touched.push(row);
        const position = (checkedOut[at] ??= createPosition());
        cache.read(row, position);
        cache.checkedOut.set(row, at);
      }
      // Checked out in this block: its object is the one flush writes back, none other row's.
      assert(touched[cache.checkedOut.get(row)] === row, "wallet fold: a position is its row's checked-out object");
      return checkedOut[cache.checkedOut.get(row)]!;
    },
  };

  const result = createWalletFoldResult();
  const thisTask = ++taskNumber;
  /** The rows this task wrote. */
  const written: number[] = [];
  const flush = () => {
    assert(block >= 0 && touched.length <= checkedOut.length, "wallet fold: a flush ends a block's events");
    const marketWallets: string[] = [];
    // Written back, then in key order: the checksum hashes a block's writes in key order.
    for (const row of touched) cache.write(row, checkedOut[cache.checkedOut.get(row)]!);
    touched.sort(byKey);
    result.startBlock(block);
    let previous = -1;
    for (const row of touched) {
      const position = checkedOut[cache.checkedOut.get(row)]!;
      // A position no event changed (an outcome looked up but not held) is never stored.
      if (position.firstTradeAt === 0) continue;
      const walletId = cache.wallet(row);
      const tokenId = cache.token(row);
      // In key order, each key once (the checksum hashes a block's writes so): rows are distinct (wallet, token) pairs.
      assert(previous < 0 || byKey(previous, row) < 0, "wallet fold: a block's positions are written in key order");
      previous = row;
      cache.lastWrite.set(row, result.position(positionKey(walletId, tokenId), position));
      if (cache.writtenIn.get(row) !== thisTask) {
        cache.writtenIn.set(row, thisTask);
        written.push(row);
      }
      positionsStored.add(walletId, tokenId);
      const market = cache.freshMarket.get(row);
      if (market !== STORED) {
        cache.freshMarket.set(row, STORED);
        const indexKey = market === NO_MARKET ? null : marketWalletKey(market, walletId);
        if (
          indexKey !== null &&
          !emitted.has(indexKey) &&
          !(
            mayBeStored(indexKeysStored, market, ID_SPACE.condition, walletId, ID_SPACE.address) &&
            store.dbs.marketWallets.doesExist(keyBytes(indexKey))
          )
        ) {
          emitted.set(indexKey, block);
          indexKeysStored.add(market, walletId);
          marketWallets.push(indexKey);
        }
      }
    }
    for (const key of marketWallets.sort()) result.indexKey(key);
    result.endBlock();
    touched = [];
  };
  let logIndex = -1;
  for (const event of events) {
    if (event.block !== block) {
      // derive writes a block's events at its end, blocks in increasing order (prepareBatch).
      assert(event.block > block, "wallet fold: a partition's blocks come in chain order");
      if (block >= 0) flush();
      block = event.block;
      logIndex = -1;
    }
    // In a block, in log order (deriveBlock): a transfer's two ends, a move's legs share their event's index.
    assert(event.logIndex >= logIndex, "wallet fold: a block's events come in log order");
    logIndex = event.logIndex;
    current = event;
    foldPositionEvent(book, event, channel);
  }
  if (block >= 0) flush();
  // Every block's positions were written back at its end: nothing is left checked out.
  assert(touched.length === 0, 'wallet fold: every block is flushed');
  // In the order the commit puts them: a table's puts in its key order visit each B-tree page once.
  written.sort(task.backfill ? byToken : byKey);
  result.finish(written.map((row) => cache.lastWrite.get(row)));
  return Piscina.move(result.take()) as WalletFoldResult;
}
