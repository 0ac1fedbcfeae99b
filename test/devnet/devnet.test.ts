// `tally devnet` (a local JSON-RPC node serving a venue's chain, revealed at a pace) driven by the commands that read
// a chain, each through the real CLI: `run` follows it (new blocks reach its answers within seconds, and its health
// stays ready once the chain goes quiet), `capture` writes its blocks, `publish --rpc` appends them to a loopback
// NATS cluster for a replica; each ends with the block records (checksums included) of a plain ingest of the
// capture the devnet serves. The devnet finds no price feed in the run's directory: `run` learns the aggregators
// from the devnet's feed proxies (eth_call), or the feeds' answers would be missing from its checksums.
import t from 'tap';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { blockRecordsOf } from '../fixtures/blockRecords.js';
import { createDemoInputs } from '../fixtures/demoVenue.js';
import { startDevnet } from '../fixtures/devnet.js';
import { startTally } from '../fixtures/startTally.js';
import { findNatsServer, startNatsCluster } from '../fixtures/natsCluster.js';
import { processTempDir } from '../fixtures/processTempDir.js';
import { runTallyAsync } from '../fixtures/runTally.js';
import { startTallyRun } from '../fixtures/tallyRun.js';

const inputs = await createDemoInputs(4_000, 13);
const root = processTempDir('tally-devnet-');
const dataDir = (name: string, config: string | null = inputs.config) => {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  if (config) copyFileSync(config, join(dir, 'config.json'));
  return dir;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The capture's blocks and times: the devnet starts a day of chain time before the end and reveals it in ~8 s.
const lines = readFileSync(inputs.capture, 'utf8').trim().split('\n');
const blockOf = (line: string) => JSON.parse(line) as { blockNumber: string; blockTimestamp: string };
const first = parseInt(blockOf(lines[0]!).blockNumber, 16);
const last = parseInt(blockOf(lines.at(-1)!).blockNumber, 16);
const lastTs = parseInt(blockOf(lines.at(-1)!).blockTimestamp, 16);
const startLine = lines.find((line) => parseInt(blockOf(line).blockTimestamp, 16) >= lastTs - 86_400)!;
const startBlock = parseInt(blockOf(startLine).blockNumber, 16);
const DAY_IN_SECONDS = 30;

const plain = dataDir('plain');
const ingest = await runTallyAsync(['ingest', '--data', plain, '--capture', inputs.capture]);
if (ingest.code !== 0) throw new Error(ingest.stderr);
const expected = await blockRecordsOf(plain);

// The devnet serves the capture with the demo's price feeds (its data directory's config) behind the proxies.
const devnetData = dataDir('devnet');
const devnet = await startDevnet([
  '--data',
  devnetData,
  '--capture',
  inputs.capture,
  '--start-block',
  String(startBlock),
  '--pace',
  String(Math.ceil(86_400 / DAY_IN_SECONDS)),
]);
t.teardown(() => devnet.stop());

const rpc = async (method: string, params: unknown[] = []) => {
  const answer = await fetch(devnet.url, {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await answer.json()) as { result: unknown }).result;
};
const finalizedBlock = async () =>
  parseInt(((await rpc('eth_getBlockByNumber', ['finalized', false])) as { number: string }).number, 16);

t.test('behavior: run follows the devnet, new blocks in its answers as they are revealed', async (t) => {
  t.ok(startBlock > first && startBlock < last, `the devnet starts at block ${startBlock} of ${first}..${last}`);
  const run = await startTallyRun(dataDir('run', null), ['--rpc', devnet.url, '--start-block', String(first)]);
  t.teardown(() => run.stop());
  const seen: number[] = [];
  type Health = { block: number; status: string; ready: boolean; lagBlocks: number; sourceHead: number };
  let health: Health | undefined;
  for (const started = Date.now(); health?.block !== last; await sleep(200)) {
    if (Date.now() - started > 120_000) throw new Error(`run did not reach block ${last}: ${run.stderr()}`);
    const answer = await run.get('/health');
    if (answer.status !== 200) continue;
    health = (await answer.json()) as Health;
    if (seen.at(-1) !== health.block) seen.push(health.block);
  }
  t.ok(
    seen.filter((block) => block > startBlock).length >= 3,
    `blocks past the start appeared one after another: ${seen.length}`,
  );
  t.same(
    seen,
    [...seen].sort((a, b) => a - b),
    'the served block only moves forward',
  );
  // Past the capture the chain goes on with empty blocks: read, so the node stays caught up.
  for (const started = Date.now(); (await finalizedBlock()) < last + 200; await sleep(200))
    if (Date.now() - started > 30_000) throw new Error('the devnet did not move past the capture');
  await sleep(3_000);
  const quiet = (await (await run.get('/health')).json()) as Health;
  t.ok(quiet.sourceHead > last + 150, `the source head moved on with the chain: ${quiet.sourceHead}`);
  t.ok(quiet.lagBlocks < 64, `the empty blocks are read, not lagged: ${quiet.lagBlocks} blocks behind`);
  t.equal(quiet.status, 'ok');
  t.equal(quiet.ready, true);
  t.equal((await run.get('/ready')).status, 200);
  t.equal(await run.stop(), 0);
  t.same(await blockRecordsOf(join(root, 'run')), expected, "run's block records are the plain ingest's");
});

t.test('behavior: capture of the devnet writes what a plain ingest folds', async (t) => {
  for (const started = Date.now(); (await finalizedBlock()) < last; await sleep(200))
    if (Date.now() - started > 60_000) throw new Error('the devnet did not reveal the whole capture');
  const file = join(root, 'captured.ndjson');
  const capture = await runTallyAsync([
    'capture',
    '--rpc',
    devnet.url,
    '--from-block',
    String(first),
    '--to-block',
    String(last),
    '--out',
    file,
    '--data',
    dataDir('capture'),
  ]);
  t.equal(capture.code, 0, capture.stderr);
  const captured = dataDir('captured');
  const ingested = await runTallyAsync(['ingest', '--data', captured, '--capture', file]);
  t.equal(ingested.code, 0, ingested.stderr);
  t.same(await blockRecordsOf(captured), expected, "the capture's fold is the plain ingest's");
});

if (findNatsServer() === null) {
  if (process.env.CI) t.fail('no nats-server: the pretest step (test/installSystemPackages.ts) could not install it');
  else
    t.test('publish --rpc of the devnet', { skip: 'no nats-server installed (apt-get install nats-server)' }, () => {});
} else {
  t.test('behavior: publish --rpc of the devnet reaches a replica that folds what a plain ingest folds', async (t) => {
    const cluster = await startNatsCluster(processTempDir('tally-nats-'));
    t.teardown(() => cluster.stop());
    const publisher = await startTally(
      [
        'publish',
        '--nats',
        cluster.url,
        '--rpc',
        devnet.url,
        '--start-block',
        String(first),
        '--data',
        dataDir('pub', null),
      ],
      null,
    );
    t.teardown(() => publisher.kill());
    const replica = await startTallyRun(dataDir('replica'), ['--nats', cluster.url], 'replica');
    t.teardown(() => replica.stop());
    for (const started = Date.now(); ; await sleep(100)) {
      const answer = await replica.get('/health');
      if (answer.status === 200 && ((await answer.json()) as { block: number }).block === last) break;
      if (Date.now() - started > 120_000)
        throw new Error(`the replica did not reach block ${last}\n${replica.stderr()}\n${publisher.stderr()}`);
    }
    t.equal(await publisher.stop(), 0, `the publisher stops cleanly on SIGTERM: ${publisher.stderr()}`);
    t.equal(await replica.stop(), 0);
    t.same(await blockRecordsOf(join(root, 'replica')), expected, "the replica's block records are the plain ingest's");
  });
}

t.test('behavior: run against another chain is refused before it serves, and leaves no directory', async (t) => {
  // A devnet whose venue has its contracts elsewhere: no code at the Polygon CTF a new directory's run expects.
  const elsewhere = dataDir('elsewhere', null);
  writeFileSync(join(elsewhere, 'config.json'), JSON.stringify({ addresses: { ctf: '0x' + '1'.repeat(40) } }));
  const other = await startDevnet(['--data', elsewhere, '--capture', inputs.capture, '--pace', '0']);
  t.teardown(() => other.stop());
  const fresh = join(root, 'never-made');
  const run = await runTallyAsync(['run', '--rpc', other.url, '--data', fresh, '--port', '0']);
  t.equal(run.code, 1, run.stderr);
  t.match(run.stderr, /has no contract at the CTF address/);
  t.notMatch(run.stdout, /serving/, 'nothing was said to serve');
  t.notOk(existsSync(fresh), 'the directory the run made is gone');
});
