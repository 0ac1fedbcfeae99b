// `tally publish --rpc` (issue 26 item 4, the production source): the publisher follows a JSON-RPC node's finalized
// blocks and appends each batch's frame as it commits; a replica folds them, a block mined later included, and ends
// with the per-block checksums of a plain `tally ingest --rpc` of the same chain. SIGTERM stops the publisher
// cleanly.
import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { blockRecordsOf } from '../fixtures/blockRecords.js';
import { startLocalChain } from '../fixtures/localChain.js';
import { findNatsServer, startNatsCluster } from '../fixtures/natsCluster.js';
import { processTempDir } from '../fixtures/processTempDir.js';
import { runTallyAsync } from '../fixtures/runTally.js';
import { startTallyRun } from '../fixtures/tallyRun.js';
import { startTally } from '../fixtures/startTally.js';
import { emitVenueScenario, mineTransfer } from '../fixtures/venueScenario.js';

if (findNatsServer() === null) {
  if (process.env.CI) t.fail('no nats-server: the pretest step (test/installSystemPackages.ts) could not install it');
  else t.test('publish --rpc', { skip: 'no nats-server installed (apt-get install nats-server)' }, () => {});
} else {
  const chain = await startLocalChain();
  t.teardown(() => chain.close());
  const scenario = await emitVenueScenario(chain);
  const cluster = await startNatsCluster(processTempDir('tally-nats-'));
  t.teardown(() => cluster.stop());
  const root = processTempDir('tally-publish-rpc-');
  const dataDir = (name: string) => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ addresses: scenario.config, rpc: { maxBackoffMs: 200 } }));
    return dir;
  };

  t.test('behavior: a replica of a publisher that follows a node folds what a plain ingest of it folds', async (t) => {
    const publisher = await startTally(
      ['publish', '--nats', cluster.url, '--rpc', chain.url, '--data', dataDir('pub')],
      null,
    );
    t.teardown(() => publisher.kill());
    const replica = await startTallyRun(dataDir('replica'), ['--nats', cluster.url], 'replica');
    t.teardown(() => replica.stop());
    const health = async () => (await (await replica.get('/health')).json()) as { block: number; stream: unknown };
    const reach = async (block: number) => {
      for (const started = Date.now(); (await health()).block !== block; ) {
        if (Date.now() - started > 60_000)
          throw new Error(`the replica did not reach block ${block}\n${replica.stderr()}\n${publisher.stderr()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await reach(scenario.eventBlocks.at(-1)!);
    // A block mined while both run: followed, published and folded.
    const mined = await mineTransfer(chain, scenario);
    await reach(mined);
    t.equal(await publisher.stop(), 0, `the publisher stops cleanly on SIGTERM: ${publisher.stderr()}`);
    t.equal(await replica.stop(), 0);

    const plain = dataDir('plain');
    const ingest = await runTallyAsync(['ingest', '--data', plain, '--rpc', chain.url]);
    t.equal(ingest.code, 0, ingest.stderr);
    const expected = await blockRecordsOf(plain);
    t.equal(expected.at(-1)!.block, mined, 'the plain ingest folded the mined block too');
    t.same(await blockRecordsOf(join(root, 'replica')), expected, "the replica's block records are the plain ingest's");
    t.same(await blockRecordsOf(join(root, 'pub')), expected, "and so are the publisher's");
  });
}
