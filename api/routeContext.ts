// What a route reads: the folded state, the off-chain store, the data paths.
import type { DataPaths } from '../engine/dataDir.js';
import type { OffchainStore } from '../engine/offchain/openOffchainStore.js';
import type { StateReader } from '../engine/state/stateReader.js';
import type { StateReads } from './stateReads.js';

export interface RouteContext {
  state: StateReader;
  offchain: OffchainStore;
  paths: DataPaths;
  version: string;
  /** Cached token and market reads, refreshed by the server once per request. */
  reads: StateReads;
  /** The newest block the source has seen (the log head for captures, the finalized head for RPC). */
  sourceHead(): { block: number; ts: number };
}
