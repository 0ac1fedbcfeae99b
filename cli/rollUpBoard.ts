// The board's rollup after a fold (engine/rollup/rollupBoard.ts), with one line saying what it built. Called once
// the fold is at rest (no commit in flight), so the rollup reads one block's state throughout.
import type { OffchainStore } from '../engine/offchain/openOffchainStore.js';
import { rollupBoard } from '../engine/rollup/rollupBoard.js';
import type { StateStore } from '../engine/state/openStateStore.js';

export function rollUpBoard(store: StateStore, offchain: OffchainStore, label: string): void {
  const started = process.hrtime.bigint();
  const info = rollupBoard(store, offchain);
  if (info === null) return;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stderr.write(`${label}: leaderboard rolled up as of block ${info.block}: ${info.wallets} wallets, ${info.results} market results in ${seconds.toFixed(1)} s\n`);
}
