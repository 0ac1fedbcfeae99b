// A wallet-fold worker (piscina): folds one partition of wallets' position events in chain order and returns,
// per block, the bytes of every position that block touched. Positions come from a worker-local cache or the
// memory-mapped state; the main thread writes the results, so this worker never writes LMDB.
import { Packr } from 'msgpackr';
import { foldPositionEvent, type PositionBook } from '../reducers/foldPositionEvent.js';
import { createPosition, type Position } from '../reducers/position.js';
import type { PositionEvent } from '../reducers/positionEvent.js';
import { openStateStore, type StateStore } from '../state/openStateStore.js';
import { decodePosition, encodePosition } from '../state/stateCodec.js';
import { marketWalletKey, positionKey } from '../state/stateKeys.js';
import { openTransferSlots } from './transferSlots.js';
import type { WalletFoldResult, WalletFoldTask } from './walletFoldTask.js';

const CACHE_LIMIT = 300_000;
const messages = new Packr({ useRecords: true, bundleStrings: true });
const stores = new Map<string, StateStore>();
const cache = new Map<string, Position>();
let cacheEpoch = -1;
/** Positions created here and not yet stored: storing one adds its market -> wallet index key. */
const fresh = new Set<string>();

function storeFor(dir: string): StateStore {
  let store = stores.get(dir);
  if (!store) stores.set(dir, (store = openStateStore({ dir, readOnly: true })));
  return store;
}

export default function foldWalletPartition(task: WalletFoldTask): Uint8Array {
  const store = storeFor(task.stateDir);
  store.env.resetReadTxn();
  if (cache.size > CACHE_LIMIT || task.epoch !== cacheEpoch) {
    cache.clear();
    fresh.clear();
  }
  cacheEpoch = task.epoch;
  const events = messages.unpack(task.events) as PositionEvent[];
  const channel = openTransferSlots(task.slots, task.slotCount);
  const touched = new Set<string>();
  const book: PositionBook = {
    position(wallet, token) {
      const key = positionKey(wallet, token);
      let position = cache.get(key);
      if (!position) {
        const bytes = store.dbs.positions.getBinary(key);
        if (bytes) position = decodePosition(bytes);
        else {
          position = createPosition();
          fresh.add(key);
        }
        cache.set(key, position);
      }
      touched.add(key);
      return position;
    },
  };

  const result: WalletFoldResult = [];
  const emitted = new Set<string>();
  const flush = (block: number) => {
    const keys = [...touched].sort();
    const entries: Array<string | Uint8Array> = [];
    const marketWallets: string[] = [];
    for (const key of keys) {
      const position = cache.get(key)!;
      // A position no event changed (an outcome looked up but not held) is never stored.
      if (position.firstTradeAt === 0) continue;
      entries.push(key, encodePosition(position));
      if (fresh.delete(key)) {
        const market = task.tokenMarkets[key.slice(42)];
        const indexKey = market === undefined ? null : marketWalletKey(market, key.slice(0, 42));
        if (indexKey !== null && !emitted.has(indexKey) && !store.dbs.marketWallets.doesExist(indexKey)) {
          emitted.add(indexKey);
          marketWallets.push(indexKey);
        }
      }
    }
    if (entries.length > 0) result.push([block, entries, marketWallets.sort()]);
    touched.clear();
  };
  let block = -1;
  for (const event of events) {
    if (event.block !== block) {
      if (block >= 0) flush(block);
      block = event.block;
    }
    foldPositionEvent(book, event, channel);
  }
  if (block >= 0) flush(block);
  return messages.pack(result);
}
