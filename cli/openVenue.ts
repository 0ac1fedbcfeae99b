// Opens a data directory for folding: the log (the writer lock), the state, the off-chain store and a runner.
import { existsSync, readdirSync } from 'node:fs';
import { loadVenueAddresses } from '../engine/chain/loadVenueAddresses.js';
import type { VenueAddresses } from '../engine/chain/venueAddresses.js';
import { dataPaths, type DataPaths } from '../engine/dataDir.js';
import { createFoldRunner, type FoldRunner } from '../engine/fold/createFoldRunner.js';
import { defaultWalletWorkers } from '../engine/fold/defaultWalletWorkers.js';
import { openEventLog, type EventLog } from '../engine/log/eventLog.js';
import { openOffchainStore, type OffchainStore } from '../engine/offchain/openOffchainStore.js';
import { openStateStore, type StateStore } from '../engine/state/openStateStore.js';
import { prepareStateLayout } from '../engine/state/stateLayout.js';
import { loadFoldOptions } from '../engine/foldOptions.js';
import { createLogDecoder, type LogDecoder } from '../replay/decode/decodeLog.js';

export interface Venue {
  paths: DataPaths;
  addresses: VenueAddresses;
  log: EventLog;
  store: StateStore;
  offchain: OffchainStore;
  runner: FoldRunner;
  decoder: LogDecoder;
  close(): Promise<void>;
}

/** True when the directory holds no venue yet (no log events). */
export function isEmptyDataDir(root: string): boolean {
  const paths = dataPaths(root);
  if (!existsSync(paths.log)) return true;
  return !readdirSync(paths.log).some((f) => f.endsWith('.seg'));
}

export function openVenue(
  root: string,
  options: { workers?: number; positionCache?: number; backfill?: boolean } = {},
): Venue {
  const paths = dataPaths(root);
  const addresses = loadVenueAddresses(paths.config);
  const log = openEventLog({ dir: paths.log });
  const foldOptions = loadFoldOptions(paths.config);
  const store = openStateStore({ dir: paths.state, flushOnClose: true, randomReads: true });
  if (prepareStateLayout(store, foldOptions)) {
    process.stderr.write(
      `tally: ${paths.state} was folded by another state layout or other options in config.json: it is folded again from the log\n`,
    );
  }
  const offchain = openOffchainStore({ dir: paths.offchain });
  const runner = createFoldRunner({
    store,
    stateDir: paths.state,
    addresses,
    logIds: log.ids,
    workers: options.workers ?? defaultWalletWorkers(),
    trades: foldOptions.trades,
    positionCache: options.positionCache,
    backfill: options.backfill,
  });
  return {
    paths,
    addresses,
    log,
    store,
    offchain,
    runner,
    decoder: createLogDecoder(addresses),
    async close() {
      await runner.close();
      log.close();
      await store.close();
      await offchain.close();
    },
  };
}
