// The fold's threads load their module by import(), never by require() of an ES module, which on Node 20 can race
// an import() under module hooks (as this very test runner installs) and abort the process; and they run their
// timers between tasks.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { open } from 'lmdb';
import { Piscina } from 'piscina';
import { workerOptions } from '../../engine/workerOptions.js';

t.test('behavior: a worker thread started with the options refuses require() of an ES module', async (t) => {
  const { execArgv } = workerOptions('engine/fold/walletFoldWorker', import.meta.url);
  const esModule = new URL('../../cli/buildPaths.mjs', import.meta.url).pathname;
  const probe = `
    const { parentPort, workerData } = require('node:worker_threads');
    try { require(workerData); parentPort.postMessage('required'); }
    catch (error) { parentPort.postMessage(error.code); }`;
  const answer = await new Promise((resolve, reject) => {
    const worker = new Worker(probe, { eval: true, execArgv, workerData: esModule });
    worker.once('message', (message) => void worker.terminate().then(() => resolve(message)));
    worker.once('error', reject);
  });
  t.equal(answer, 'ERR_REQUIRE_ESM');
});

t.test('default: the thread keeps this process flags, and its module is found by its path from the root', async (t) => {
  const sources = new URL('../../', import.meta.url).href;
  const options = workerOptions('engine/fold/walletFoldWorker', import.meta.url);
  t.equal(options.filename, `${sources}engine/fold/walletFoldWorker.ts`);
  t.same(options.execArgv.slice(0, process.execArgv.length), process.execArgv);
  // The build's callers sit anywhere under dist/ (in shared chunks too): the module is the one of that path there.
  const dist = mkdtempSync(join(tmpdir(), 'tally-dist-'));
  t.teardown(() => rmSync(dist, { recursive: true, force: true }));
  mkdirSync(join(dist, 'engine/fold'), { recursive: true });
  mkdirSync(join(dist, 'chunks'));
  writeFileSync(join(dist, 'engine/fold/walletFoldWorker.js'), '');
  const built = workerOptions('engine/fold/walletFoldWorker', pathToFileURL(join(dist, 'chunks/chunk-1.js')).href);
  t.equal(built.filename, pathToFileURL(join(dist, 'engine/fold/walletFoldWorker.js')).href);
  t.throws(() => workerOptions('engine/fold/noSuchWorker', import.meta.url), /no engine\/fold\/noSuchWorker\.ts above/);
});

// `node --max-old-space-size=N cli/tally.mjs ...` (an operator's heap setting) used to stop at the first thread: a
// Worker refuses V8's options and the process's own in its execArgv. They hold for every thread already.
t.test('behavior: the process run with V8 options still starts its fold threads', async (t) => {
  const data = mkdtempSync(join(tmpdir(), 'tally-v8-options-'));
  t.teardown(() => rmSync(data, { recursive: true, force: true }));
  const tally = new URL('../../cli/tally.mjs', import.meta.url).pathname;
  const run = spawnSync(
    process.execPath,
    ['--max-old-space-size=2048', '--stack-size=900', tally, 'demo', '--fills', '300', '--data', data],
    { encoding: 'utf8' },
  );
  t.equal(run.status, 0, run.stderr);
  t.notMatch(run.stderr, /ERR_WORKER_INVALID_EXEC_ARGV/);
});

// A pool thread runs its timers between tasks (engine/workerOptions.ts): lmdb-js sets a timer each time it renews a
// read transaction, and a thread that never returned to its event loop kept every one (the wallet worker ran out of
// heap at 30M fills). Each task here renews one: the timers pending must stay well below the tasks run (with the
// threads blocking between tasks they were one a task; running, they come and go, tens at most).
t.test("a pool thread's timers run between its tasks", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-worker-timers-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = open({ path: dir });
  await store.put('key', 'value');
  await store.close();
  const pool = new Piscina({ ...workerOptions('../fixtures/readTxnWorker', import.meta.url), maxThreads: 1 });
  t.teardown(() => pool.destroy());
  const tasks = 400;
  let most = 0;
  for (let i = 0; i < tasks; i++) most = Math.max(most, (await pool.run({ dir })) as number);
  t.ok(most < tasks / 4, `timers pending over ${tasks} tasks: at most ${most}`);
});
