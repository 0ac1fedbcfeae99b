import { EnvironmentError } from './environmentError.js';
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/**
 * The file of a thread's module, named by its path from the sources' root (`engine/fold/walletFoldWorker`): the
 * TypeScript source when the caller runs from the sources, else the build's file of that path (cli/build.mjs keeps
 * each thread's module at its path under dist/, while the caller's own code may sit in a shared chunk). Found by
 * walking up from the caller.
 */
function moduleFile(modulePath: string, callerUrl: string): string {
  const extension = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  for (let dir = new URL('.', callerUrl); dir.pathname !== '/'; dir = new URL('..', dir)) {
    const file = new URL(modulePath + extension, dir);
    if (existsSync(file)) return file.href;
  }
  throw new EnvironmentError(`no ${modulePath}${extension} above ${callerUrl}`);
}

/**
 * Where a worker's module is (`modulePath` from the sources' root) and how its thread starts. Run from the
 * TypeScript sources (no build yet), the worker needs tsx's loader too, resolved from this package rather than from
 * the user's working directory.
 *
 * Piscina loads a worker's module with require() first and import() only if that throws. On Node 20, require()
 * of an ES module can race an import() under module hooks (a tracer's, a test runner's) and abort the whole
 * process (`v8::Module::IsGraphAsync ... must be used on an instantiated module`), so the thread refuses
 * require() of ES modules and Piscina takes its import() path.
 *
 * Between tasks a thread goes back to its event loop (`atomics: 'disabled'`). With Piscina's default it blocks in
 * Atomics.wait instead, so its timers never run: lmdb-js sets one each time it renews a read transaction, and each
 * stayed on the heap with what it holds (a wallet worker kept 1.3 more a task; at 30M fills the worker ran out of
 * its 256 MiB old space, and a server's heavy-answer thread would have grown with every answer). A message costs a
 * turn of the event loop instead of a wait: nothing next to a task of milliseconds.
 */
export function workerOptions(
  modulePath: string,
  callerUrl: string,
): { filename: string; execArgv: string[]; atomics: 'disabled' } {
  const filename = moduleFile(modulePath, callerUrl);
  const typescript = filename.endsWith('.ts');
  const loaded = process.execArgv.some((arg) => arg.includes('tsx'));
  const loader = typescript && !loaded ? ['--import', import.meta.resolve('tsx')] : [];
  return { filename, execArgv: [...threadExecArgv(), ...loader, ...NO_REQUIRE_OF_ES_MODULES], atomics: 'disabled' };
}

let inherited: string[] | null = null;

/**
 * The process's command-line options a thread takes. V8's options and the process's own (`--max-old-space-size`,
 * `--single-threaded-gc`, `--v8-pool-size`) already hold for every thread, and a Worker given one refuses to start
 * (ERR_WORKER_INVALID_EXEC_ARGV, naming each): `node --max-old-space-size=8192 cli/tally.mjs ingest` stopped at its
 * first wallet worker. Those it names are left out, found once by a thread that is stopped at once.
 */
function threadExecArgv(): string[] {
  if (inherited !== null) return inherited;
  inherited = [...process.execArgv];
  if (inherited.length === 0) return inherited;
  try {
    void new Worker('', { eval: true, execArgv: inherited }).terminate();
  } catch (error) {
    const refused = /invalid execArgv flags: (.*)$/.exec((error as Error).message)?.[1];
    if ((error as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV' || refused === undefined) throw error;
    const names = new Set(refused.split(', '));
    inherited = inherited.filter((arg) => !names.has(arg));
  }
  return inherited;
}

/** A Node that no longer knows the flag would refuse to start the thread. */
const NO_REQUIRE_OF_ES_MODULES = process.allowedNodeEnvironmentFlags.has('--no-experimental-require-module')
  ? ['--no-experimental-require-module']
  : [];

/**
 * A long-lived thread of `modulePath` (not a Piscina pool's). Run from the TypeScript sources, a thread's own
 * entry file is loaded before a loader given in execArgv is in place, so the entry registers tsx itself first
 * (as cli/tally.mjs does) and then imports the module.
 */
export function startWorkerThread(modulePath: string, callerUrl: string, workerData: unknown): Worker {
  const { filename, execArgv } = workerOptions(modulePath, callerUrl);
  if (!filename.endsWith('.ts')) return new Worker(new URL(filename), { workerData, execArgv });
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = `import(${tsx}).then(({ register }) => { register(); return import(${JSON.stringify(filename)}); })`;
  return new Worker(entry, { eval: true, workerData, execArgv });
}
