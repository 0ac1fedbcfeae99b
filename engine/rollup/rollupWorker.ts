// The board's rollup in a worker thread (piscina), so that a process serving the API while it folds (`tally run`)
// keeps answering during a rollup. The caller starts one only while the fold is at rest, so the rollup reads one
// block's state throughout; its commits reach the caller's readers at their next read transaction.
import { openOffchainStore, type OffchainStore } from '../offchain/openOffchainStore.js';
import { openStateStore, type StateStore } from '../state/openStateStore.js';
import { rollupBoard, type RolledBoard } from './rollupBoard.js';

export interface RollupTask { stateDir: string; offchainDir: string }

const opened = new Map<string, { store: StateStore; offchain: OffchainStore }>();

export default function rollupTask({ stateDir, offchainDir }: RollupTask): RolledBoard | null {
  let stores = opened.get(stateDir);
  if (!stores) opened.set(stateDir, (stores = { store: openStateStore({ dir: stateDir }), offchain: openOffchainStore({ dir: offchainDir }) }));
  // What the fold committed since this thread last read.
  stores.store.env.resetReadTxn();
  stores.offchain.env.resetReadTxn();
  return rollupBoard(stores.store, stores.offchain);
}
