// `tally run --metadata-url U` (README.md, Commands): the venue's market metadata, loaded at start and again every
// `everyMs` (10 minutes by default, `--metadata-every`), so that markets created while the service runs get their
// question and category. A refresh pages through the API (fetchMarketPages) and stores the markets that are new or
// changed with a new off-chain revision, so the server's cached answers go stale at once; the board's categories
// follow at the fold's next rest (followRpc's `offchainChanged`). A refresh that fails is logged and tried again
// at the next interval: it never ends the process.
import { exitCodeOf } from './exitCodeOf.js';
import type { OffchainStore } from '../engine/offchain/openOffchainStore.js';
import { formatDuration } from './blockProgress.js';
import { fetchMetadataPages, storeMetadata } from './commands/metadataCommand.js';

export const METADATA_REFRESH_MS = 600_000;

export interface MetadataRefresh {
  /** True once after a refresh changed the metadata (the board is then rolled up again). */
  takeChanged(): boolean;
  /** Ends the refreshes: the timer is cleared and a refresh in flight stopped and waited for. */
  stop(): Promise<void>;
}

export function startMetadataRefresh(options: {
  url: string;
  offchain: OffchainStore;
  /** Default METADATA_REFRESH_MS. */
  everyMs?: number;
}): MetadataRefresh {
  const everyMs = options.everyMs ?? METADATA_REFRESH_MS;
  const controller = new AbortController();
  let changed = false;
  let timer: NodeJS.Timeout | undefined;
  const refresh = async (): Promise<void> => {
    try {
      const markets = await fetchMetadataPages(options.url, 'metadata', controller.signal);
      if (controller.signal.aborted) return;
      const stored = await storeMetadata(options.offchain, markets, options.url);
      if (stored.added + stored.changed > 0) changed = true;
    } catch (error) {
      if (controller.signal.aborted) return;
      // A user's kind of error is its line; anything else is a bug, told with its stack, and still not fatal here.
      const told = exitCodeOf(error) !== null ? (error as Error).message : (error as Error).stack;
      const next = formatDuration(everyMs / 1000);
      process.stderr.write(`metadata: the refresh from ${options.url} failed: ${told}; next in ${next}\n`);
    }
    if (!controller.signal.aborted) timer = setTimeout(() => (running = refresh()), everyMs);
  };
  let running = refresh();
  return {
    takeChanged() {
      const was = changed;
      changed = false;
      return was;
    },
    async stop() {
      controller.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
