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

/** A cached position. */
interface Slot {
  wallet: string;
  token: string;
  position: Position;
  /**
   * Set while the position was created here and not yet stored: its market as of the latest event that named
   * it ('' unknown). Storing it adds its market -> wallet index key.
   */
  freshMarket: string | null;
  /** The last block whose flush included it. */
  touchedBlock: number;
}
/** wallet -> token -> slot: two lookups of short strings instead of one of a concatenated key. */
const cache = new Map<string, Map<string, Slot>>();
let cacheSize = 0;
let cacheEpoch = -1;

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
  if (cacheSize > CACHE_LIMIT || task.epoch !== cacheEpoch) {
    cache.clear();
    cacheSize = 0;
  }
  cacheEpoch = task.epoch;
  const events = messages.unpack(task.events) as PositionEvent[];
  const channel = openTransferSlots(task.slots, task.slotCount);
  let touched: Slot[] = [];
  let current: PositionEvent | null = null;
  let block = -1;
  const book: PositionBook = {
    position(wallet, token) {
      let tokens = cache.get(wallet);
      if (!tokens) cache.set(wallet, (tokens = new Map()));
      let slot = tokens.get(token);
      if (!slot) {
        const bytes = store.dbs.positions.getBinary(positionKey(wallet, token));
        slot = bytes
          ? { wallet, token, position: decodePosition(bytes), freshMarket: null, touchedBlock: -1 }
          : { wallet, token, position: createPosition(), freshMarket: '', touchedBlock: -1 };
        tokens.set(token, slot);
        cacheSize++;
      }
      if (slot.freshMarket !== null) {
        const market = marketOf(current!, token);
        if (market !== '') slot.freshMarket = market;
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
    const keys = touched.map((slot) => positionKey(slot.wallet, slot.token));
    const order = keys.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1));
    for (const i of order) {
      const slot = touched[i]!;
      // A position no event changed (an outcome looked up but not held) is never stored.
      if (slot.position.firstTradeAt === 0) continue;
      entries.push(keys[i]!, encodePosition(slot.position));
      if (slot.freshMarket !== null) {
        const market = slot.freshMarket;
        slot.freshMarket = null;
        const indexKey = market === '' ? null : marketWalletKey(market, slot.wallet);
        if (indexKey !== null && !emitted.has(indexKey) && !store.dbs.marketWallets.doesExist(indexKey)) {
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
