// A wallet-fold worker (piscina): folds one partition of wallets' position events in chain order and returns,
// per block, the bytes of every position that block touched. Positions come from a worker-local cache or the
// memory-mapped state; the main thread writes the results, so this worker never writes LMDB.
import { Packr } from 'msgpackr';
import { foldPositionEvent, type PositionBook } from '../reducers/foldPositionEvent.js';
import { createPosition, type Position } from '../reducers/position.js';
import { POSITION_EVENT, type PositionEvent } from '../reducers/positionEvent.js';
import { openStateStore, type StateStore } from '../state/openStateStore.js';
import { decodePosition, encodePosition } from '../state/stateCodec.js';
import { marketWalletKey, positionKey } from '../state/stateKeys.js';
import { openTransferSlots } from './transferSlots.js';
import type { WalletFoldResult, WalletFoldTask } from './walletFoldTask.js';

const CACHE_LIMIT = 100_000;
const messages = new Packr({ useRecords: true, bundleStrings: true });
const stores = new Map<string, StateStore>();
const cache = new Map<string, Position>();
let cacheEpoch = -1;
/**
 * Positions created here and not yet stored, with their market as of the latest event that named them:
 * storing one adds its market -> wallet index key.
 */
const fresh = new Map<string, string>();

/** The market of `token` as the event that names it knew it. */
function marketOf(event: PositionEvent, token: string): string {
  if (event.kind !== POSITION_EVENT.conversion) return event.market;
  const no = event.noTokens.indexOf(token);
  return no >= 0 ? event.noMarkets[no]! : event.yesMarkets[event.yesTokens.indexOf(token)] ?? '';
}

function storeFor(dir: string): StateStore {
  let store = stores.get(dir);
  if (!store) stores.set(dir, (store = openStateStore({ dir, readOnly: true })));
  return store;
}

/** Closes this thread's state stores, so the fold's main thread can release the map (see StateStore.reopen). */
export async function releaseStores(): Promise<void> {
  for (const [dir, store] of stores) {
    stores.delete(dir);
    await store.close();
  }
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
  let current: PositionEvent | null = null;
  const book: PositionBook = {
    position(wallet, token) {
      const key = positionKey(wallet, token);
      let position = cache.get(key);
      if (!position) {
        const bytes = store.dbs.positions.getBinary(key);
        if (bytes) position = decodePosition(bytes);
        else {
          position = createPosition();
          fresh.set(key, '');
        }
        cache.set(key, position);
      }
      if (fresh.has(key)) {
        const market = marketOf(current!, token);
        if (market !== '') fresh.set(key, market);
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
      const market = fresh.get(key);
      if (market !== undefined) {
        fresh.delete(key);
        const indexKey = market === '' ? null : marketWalletKey(market, key.slice(0, 42));
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
    current = event;
    foldPositionEvent(book, event, channel);
  }
  if (block >= 0) flush(block);
  return messages.pack(result);
}
