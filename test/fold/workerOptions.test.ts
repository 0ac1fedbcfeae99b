// The fold's threads load their module by import(), never by require() of an ES module, which on Node 20 can race
// an import() under module hooks (as this very test runner installs) and abort the process.
import t from 'tap';
import { Worker } from 'node:worker_threads';
import { workerOptions } from '../../engine/workerOptions.js';

t.test('behavior: a worker thread started with the options refuses require() of an ES module', async (t) => {
  const { execArgv } = workerOptions('./walletFoldWorker', import.meta.url);
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

t.test('default: the thread keeps this process flags, and the worker module is beside its caller', async (t) => {
  const options = workerOptions('./walletFoldWorker', 'file:///x/engine/fold/createFoldRunner.js');
  t.equal(options.filename, 'file:///x/engine/fold/walletFoldWorker.js');
  t.same(options.execArgv.slice(0, process.execArgv.length), process.execArgv);
});
