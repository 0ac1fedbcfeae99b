// Refolds a data directory's log into a fresh state directory (replay and verify): the log alone decides it.
import { loadVenueAddresses } from '../../engine/chain/loadVenueAddresses.js';
import { dataPaths } from '../../engine/dataDir.js';
import { loadFoldOptions } from '../../engine/foldOptions.js';
import { createFoldRunner, type FoldRunner } from '../../engine/fold/createFoldRunner.js';
import { openEventLog } from '../../engine/log/eventLog.js';
import { openStateStore, type StateStore } from '../../engine/state/openStateStore.js';
import { prepareStateLayout } from '../../engine/state/stateLayout.js';
import { foldWithProgress } from '../foldWithProgress.js';

export async function foldIntoScratch(options: {
  data: string;
  stateDir: string;
  toBlock?: number;
  workers?: number;
  label: string;
  /** False: fold live from the start (engine/README.md, Backfill). */
  backfill?: boolean;
}): Promise<{ store: StateStore; runner: FoldRunner }> {
  const paths = dataPaths(options.data);
  const log = openEventLog({ dir: paths.log, readOnly: true });
  const store = openStateStore({ dir: options.stateDir, flushOnClose: true, randomReads: true });
  const foldOptions = loadFoldOptions(paths.config);
  prepareStateLayout(store, foldOptions);
  const runner = createFoldRunner({
    store,
    stateDir: options.stateDir,
    addresses: loadVenueAddresses(paths.config),
    logIds: log.ids,
    workers: options.workers,
    trades: foldOptions.trades,
    backfill: options.backfill,
  });
  try {
    await foldWithProgress(log, runner, options.label, options.toBlock);
  } finally {
    log.close();
  }
  return { store, runner };
}
