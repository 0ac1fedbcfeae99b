// `tally serve --host H --port P [--access-log]`: the HTTP API over the folded state (read while another process
// may fold), with the per-key limits of the data directory's config.json.
import { existsSync, readFileSync } from 'node:fs';
import { AssertionFailure } from '../../engine/assert.js';
import { RefusedError } from '../../engine/refusedError.js';
import { createServer, type Server, type ServingThreadMemory } from '../../api/server/createServer.js';
import { startServingThreads } from '../servingThreads.js';
import { loadRateLimits } from '../../api/limits/loadRateLimits.js';
import { loadReadiness } from '../../api/loadReadiness.js';
import { dataPaths } from '../../engine/dataDir.js';
import { openOffchainStore, type OffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { openStateStore, type StateStore } from '../../engine/state/openStateStore.js';
import { createRouteContext } from '../../api/createRouteContext.js';
import { createIngestDriver } from '../../engine/fold/createIngestDriver.js';
import { isStateLayoutCurrent } from '../../engine/state/stateLayout.js';
import { readBoardInfo } from '../../engine/state/boardTables.js';
import { isBoardCurrent } from '../../engine/rollup/rollupBoard.js';
import { readFoldCursor } from '../../engine/state/foldCursor.js';
import { rollUpBoardOnce, rollUpBoardUnlessFolding } from '../rollUpBoard.js';
import { loadFoldOptions } from '../../engine/foldOptions.js';
import { isMarkedByAnotherBoot } from '../../engine/state/unflushedMarker.js';
import { isEmptyDataDir, openVenue, type Venue } from '../openVenue.js';

/**
 * The package's version, from the package.json above this file: the repository's, run from the sources or from the
 * build in dist/ (cli/build.mjs).
 */
function packageVersion(): string {
  for (let dir = new URL('.', import.meta.url); dir.pathname !== '/'; dir = new URL('..', dir)) {
    const file = new URL('package.json', dir);
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  throw new AssertionFailure('a package.json is above ' + import.meta.url);
}

const VERSION = packageVersion();

/**
 * A state folded with another layout, or one a machine that went down may have left torn (its unflushed marker
 * names another boot), is folded again from the log before it is served, and its board rolled up. A board
 * behind the state (a fold stopped before its rollup) is rolled up, unless another process is folding.
 */
async function refoldStaleState(data: string): Promise<void> {
  const paths = dataPaths(data);
  const dir = paths.state;
  if (!isMarkedByAnotherBoot(dir)) {
    const probe = openStateStore({ dir });
    const current = isStateLayoutCurrent(probe, loadFoldOptions(paths.config));
    const block = readFoldCursor(probe).block;
    const boardBehind = block >= 0 && !isBoardCurrent(readBoardInfo(probe), block);
    await probe.close();
    if (current) {
      if (boardBehind) await rollUpBoardUnlessFolding(paths, 'serve');
      return;
    }
  }
  const venue = openVenue(data);
  try {
    await createIngestDriver({ log: venue.log, runner: venue.runner }).catchUp();
    await rollUpBoardOnce(paths, 'serve');
  } finally {
    await venue.close();
  }
}

/** An access-log line, on stdout after the serving line. */
function printAccessLine(line: string): void {
  process.stdout.write(line + '\n');
}

/**
 * Serves a data directory. `stores` lets `tally run` share the stores its fold writes (the server reads the
 * same memory-mapped state); they stay open on closeAll, and an empty directory is allowed (it fills as it runs).
 * `accessLog`: a line per request on stdout.
 */
export async function startServer(flags: {
  data: string;
  host: string;
  port: number;
  accessLog?: boolean;
  stores?: { store: StateStore; offchain: OffchainStore };
  /** Threads serving the port (cli/servingThreads.ts); 1, the default, serves on this thread. */
  threads?: number;
  /** Set in one of those threads: the state was checked by the main thread, the counters are shared. */
  thread?: ServingThreadMemory;
}): Promise<Server & { offchain: OffchainStore; closeAll(): Promise<void> }> {
  // A serving thread's directory was checked by the thread that started it (`run` serves one that fills as it runs).
  if (!flags.stores && !flags.thread && isEmptyDataDir(flags.data))
    throw new RefusedError(`${flags.data} holds no venue yet: run tally demo or tally ingest first`);
  const paths = dataPaths(flags.data);
  // Read before anything is folded or opened: a malformed config stops the command with one line.
  const rateLimits = loadRateLimits(paths.config);
  const readiness = loadReadiness(paths.config);
  if (!flags.stores && !flags.thread) await refoldStaleState(flags.data);
  // Answers read at random over the state (a wallet's positions, a market's holders), as `run`'s fold store does:
  // with read-ahead, each fault of a state larger than its page cache read the pages around it too, and a quarter
  // of a 10M-fill state cached read 253 GB from disk for 1,200 answers (bench:capped, docs/operating.md Sizing).
  const store = flags.stores?.store ?? openStateStore({ dir: paths.state, randomReads: true });
  const offchain = flags.stores?.offchain ?? openOffchainStore({ dir: paths.offchain });
  const closeStores = async () => {
    if (flags.stores) return;
    await store.close();
    await offchain.close();
  };
  if ((flags.threads ?? 1) > 1) {
    const threads = await startServingThreads({
      data: flags.data,
      host: flags.host,
      port: flags.port,
      threads: flags.threads!,
      accessLog: flags.accessLog ?? false,
    }).catch(async (error: unknown) => {
      await closeStores();
      throw error;
    });
    const closeAll = async () => {
      await threads.close();
      await closeStores();
    };
    return { port: threads.port, close: () => void closeAll(), offchain, closeAll };
  }
  const server = await createServer(createRouteContext({ store, offchain, paths, version: VERSION }), {
    host: flags.host,
    port: flags.port,
    rateLimits,
    readiness,
    accessLog: flags.accessLog ? printAccessLine : undefined,
    thread: flags.thread,
  });
  return {
    ...server,
    offchain,
    async closeAll() {
      server.close();
      await closeStores();
    },
  };
}

/** The server of a process that folds the venue as it serves it (`run`, `replica`): over the fold's own stores. */
export function startFoldingServer(
  venue: Venue,
  flags: { data: string; host: string; port: number; accessLog?: boolean; threads?: number },
): ReturnType<typeof startServer> {
  return startServer({
    data: flags.data,
    host: flags.host,
    port: flags.port,
    accessLog: flags.accessLog,
    stores: { store: venue.store, offchain: venue.offchain },
    threads: flags.threads,
  });
}

export async function serveCommand(flags: {
  data: string;
  host: string;
  port: number;
  threads?: number;
  accessLog?: boolean;
}): Promise<void> {
  const server = await startServer(flags);
  const threads = (flags.threads ?? 1) > 1 ? ` (${flags.threads} threads)` : '';
  console.log(`tally serving ${flags.data} on http://${flags.host}:${server.port}/v1${threads}`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.closeAll();
}
