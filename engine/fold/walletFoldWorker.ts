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
import { NO_MARKET, readPositionRecords } from './positionRecords.js';
import { openTransferSlots } from './transferSlots.js';
import type { WalletFoldResult, WalletFoldTask } from './walletFoldTask.js';

const CACHE_LIMIT = 100_000;
const messages = new Packr({ useRecords: true, bundleStrings: true });
const stores = new Map<string, StateStore>();
const keyBytes = (key: string) => Buffer.from(key, 'latin1');

/** A cached position. */
interface Slot {
  /** Its state key (positionKey): wallet id, then token id. */
  key: string;
  walletId: number;
  position: Position;
  /**
   * Set while the position was created here and not yet stored: its market as of the latest event that named
   * it (NO_MARKET unknown). Storing it adds its market -> wallet index key.
   */
  freshMarket: number | null;
  /** The last block whose flush included it. */
  touchedBlock: number;
}
/** positionKey -> slot: one lookup of an 8-character string. */
const cache = new Map<string, Slot>();
let cacheEpoch = -1;

/** The market of `token` as the event that names it knew it. */
function marketOf(event: PositionEvent<number>, token: number): number {
  if (event.kind !== POSITION_EVENT.conversion) return event.market;
  const no = event.noTokens.indexOf(token);
  return no >= 0 ? event.noMarkets[no]! : event.yesMarkets[event.yesTokens.indexOf(token)] ?? NO_MARKET;
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
  if (cache.size > CACHE_LIMIT || task.epoch !== cacheEpoch) cache.clear();
  cacheEpoch = task.epoch;
  const events = readPositionRecords(task.records, task.recordLength);
  const channel = openTransferSlots(task.slots, task.slotCount);
  let touched: Slot[] = [];
  let current: PositionEvent<number> | null = null;
  let block = -1;
  const book: PositionBook<number> = {
    position(walletId, tokenId) {
      const key = positionKey(walletId, tokenId);
      let slot = cache.get(key);
      if (!slot) {
        const bytes = store.dbs.positions.getBinary(keyBytes(key));
        slot = bytes
          ? { key, walletId, position: decodePosition(bytes), freshMarket: null, touchedBlock: -1 }
          : { key, walletId, position: createPosition(), freshMarket: NO_MARKET, touchedBlock: -1 };
        cache.set(key, slot);
      }
      if (slot.freshMarket !== null) {
        const market = marketOf(current!, tokenId);
        if (market !== NO_MARKET) slot.freshMarket = market;
      }
      if (slot.touchedBlock !== block) {
        slot.touchedBlock = block;
        touched.push(slot);
      }
      return slot.position;
    },
  };

  const result: WalletFoldResult = [];
  const emitted = new Set<string>();
  const flush = () => {
    const entries: Array<string | Uint8Array> = [];
    const marketWallets: string[] = [];
    touched.sort((a, b) => (a.key < b.key ? -1 : 1));
    for (const slot of touched) {
      // A position no event changed (an outcome looked up but not held) is never stored.
      if (slot.position.firstTradeAt === 0) continue;
      entries.push(slot.key, encodePosition(slot.position));
      if (slot.freshMarket !== null) {
        const market = slot.freshMarket;
        slot.freshMarket = null;
        const indexKey = market === NO_MARKET ? null : marketWalletKey(market, slot.walletId);
        if (indexKey !== null && !emitted.has(indexKey) && !store.dbs.marketWallets.doesExist(keyBytes(indexKey))) {
          emitted.add(indexKey);
          marketWallets.push(indexKey);
        }
      }
    }
    if (entries.length > 0) result.push([block, entries, marketWallets.sort()]);
    touched = [];
  };
  for (const event of events) {
    if (event.block !== block) {
      if (block >= 0) flush();
      block = event.block;
    }
    current = event;
    foldPositionEvent(book, event, channel);
  }
  if (block >= 0) flush();
  return messages.pack(result);
}
