// The rules that keep a replicated log whole (replay/README.md, Replicas): a frame cut into many chunks is put
// together again; a second publisher, or one with another venue's log, is refused rather than appending; a replica
// refuses a directory it did not fill from the stream, and a publisher's other fold settings.
import t from 'tap';
import { join } from 'node:path';
import { openEventLog } from '../../engine/log/eventLog.js';
import { openOffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { RefusedError } from '../../engine/refusedError.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { connectNats } from '../../replay/stream/connectNats.js';
import { createLogPublisher } from '../../replay/stream/createLogPublisher.js';
import { ensureLogStream } from '../../replay/stream/ensureLogStream.js';
import { logStreamNames, readChunk, chunkHeaders } from '../../replay/stream/logStream.js';
import { watchStreamHead } from '../../replay/stream/watchStreamHead.js';
import { readSourceHead } from '../../engine/state/sourceHead.js';
import { readSourceOutage } from '../../engine/state/sourceOutage.js';
import { createIngestedDemo } from '../fixtures/demoData.js';
import { emptyDataDir } from '../fixtures/demoVenue.js';
import { findNatsServer, startNatsCluster } from '../fixtures/natsCluster.js';
import { processTempDir } from '../fixtures/processTempDir.js';
import { runTallyAsync } from '../fixtures/runTally.js';
import { startTallyRun, type TallyRun } from '../fixtures/tallyRun.js';
import { loadVenueAddresses } from '../../engine/chain/loadVenueAddresses.js';
import { loadFoldOptions } from '../../engine/foldOptions.js';
import { foldSettingsDigest } from '../../replay/stream/foldSettingsDigest.js';

t.test('unit: chunk headers read back as written, and a foreign message is named', async (t) => {
  const names = logStreamNames('T1');
  const chunk = {
    kind: 'frames' as const,
    first: 5,
    last: 9,
    offset: 100,
    total: 300,
    sha256: null,
    foldSettings: 'ab',
  };
  t.same(readChunk(names, names.subjects.frames, chunkHeaders(chunk), 200), chunk);
  t.match(readChunk(names, names.subjects.frames, chunkHeaders(chunk), 201), /do not fit a 201-byte message/);
  t.match(readChunk(names, 'other.subject', chunkHeaders(chunk), 200), /is none of tally\.t1\.frames/);
  t.match(readChunk(names, names.subjects.frames, undefined, 200), /no Tally-Blocks and Tally-Chunk headers/);
  t.throws(() => logStreamNames('a.b'), RefusedError, 'a refusal: one line, exit 1');
  t.throws(() => logStreamNames('a.b'), /use 1 to 64 letters/);
});

if (findNatsServer() === null) {
  if (process.env.CI) t.fail('no nats-server: the pretest step (test/installSystemPackages.ts) could not install it');
  else t.test('publish rules', { skip: 'no nats-server installed (apt-get install nats-server)' }, () => {});
} else {
  const { data: plain, inputs } = await createIngestedDemo(3_000, 27);
  const other = await createIngestedDemo(3_000, 28);
  const cluster = await startNatsCluster(processTempDir('tally-nats-'));
  t.teardown(() => cluster.stop());
  const link = await connectNats(cluster.url, 'test');
  t.teardown(() => link.close());
  const blocksOf = async (dir: string) => {
    const store = openStateStore({ dir: join(dir, 'state'), readOnly: true });
    const blocks = [...createStateReader(store).blocks()];
    await store.close();
    return blocks;
  };
  const settings = foldSettingsDigest(loadVenueAddresses(inputs.config), loadFoldOptions(inputs.config));
  const publisherOf = async (stream: string, dataDir: string, chunkBytes?: number, foldSettings = settings) => {
    const names = logStreamNames(stream);
    await ensureLogStream(link, names);
    const log = openEventLog({ dir: join(dataDir, 'log'), readOnly: true });
    const offchain = openOffchainStore({ dir: join(dataDir, 'offchain'), readOnly: true });
    const state = openStateStore({ dir: join(dataDir, 'state'), readOnly: true });
    t.teardown(async () => {
      log.close();
      await offchain.close();
      await state.close();
    });
    return createLogPublisher({ link, names, log, offchain, state, foldSettings, chunkBytes });
  };
  const exitOf = (run: TallyRun) =>
    new Promise<number | null>((resolve) => {
      const poll = setInterval(() => {
        if (run.exitCode() === null) return;
        clearInterval(poll);
        resolve(run.exitCode());
      }, 50);
    });

  t.test('behavior: frames cut into 4 KiB chunks fold on a replica as the plain ingest folded them', async (t) => {
    const publisher = await publisherOf('SMALL', plain, 4096);
    const counts = await publisher.ship();
    t.ok(counts.chunks > counts.frames * 10, `${counts.frames} frames went as ${counts.chunks} chunks`);
    const dir = emptyDataDir(inputs, 'small');
    const replica = await startTallyRun(dir, ['--nats', cluster.url, '--stream', 'SMALL'], 'replica');
    const expected = await blocksOf(plain);
    for (const started = Date.now(); ; ) {
      const health = (await (await replica.get('/health')).json()) as { block: number };
      if (health.block === expected.at(-1)!.block) break;
      if (Date.now() - started > 60_000) throw new Error(`the replica did not catch up: ${replica.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    t.equal(await replica.stop(), 0, 'the replica stops cleanly on SIGTERM');
    t.same(await blocksOf(dir), expected, "every block's checksum is the plain ingest's");
  });

  t.test(
    "behavior: a replica keeps the stream's last block as its source head, and a lost cluster as an outage",
    async (t) => {
      const publisher = await publisherOf('HEAD', plain);
      await publisher.ship();
      const store = openStateStore({ dir: join(processTempDir('tally-head-'), 'state') });
      t.teardown(() => store.close());
      const stop = watchStreamHead(link, logStreamNames('HEAD'), store);
      const until = async (done: () => boolean) => {
        for (const started = Date.now(); !done(); ) {
          if (Date.now() - started > 20_000) throw new Error('timed out');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      await until(() => readSourceHead(store) !== null);
      t.same(readSourceHead(store), { block: publisher.publishedThrough(), ts: 0 }, "the stream's last frame's block");
      await stop();
      const gone = watchStreamHead(link, logStreamNames('GONE'), store);
      await until(() => readSourceOutage(store) !== null);
      await gone();
      t.match(readSourceOutage(store)!.lastError, /^stream GONE: /, 'a stream that does not answer is an outage');
    },
  );

  t.test('behavior: a replica refuses frames published with other fold settings', async (t) => {
    await (await publisherOf('ODD', plain, undefined, 'not-these')).ship();
    const refusing = await startTallyRun(
      emptyDataDir(inputs, 'odd'),
      ['--nats', cluster.url, '--stream', 'ODD'],
      'replica',
    );
    t.equal(await exitOf(refusing), 1, "a replica whose config differs from the publisher's stops");
    t.match(
      refusing.stderr(),
      /published with other contract addresses or fold options .*copy the publisher's config.json/,
    );
  });

  t.test("behavior: a second publisher, or another venue's log, is refused and appends nothing", async (t) => {
    const first = await publisherOf('RACE', plain);
    const second = await publisherOf('RACE', other.data);
    await first.ship();
    const sequence = first.sequence();
    await t.rejects(second.ship(), RefusedError, 'the publisher that saw an empty stream is refused');
    await t.rejects(second.ship(), /appended to by someone else after sequence 0: one publisher per stream/);
    await t.rejects(
      publisherOf('RACE', other.data),
      /stream RACE ends with blocks \d+\.\.\d+, which this log does not hold as published/,
      'a publisher started on another log is refused at once',
    );
    const again = await publisherOf('RACE', plain);
    t.same(
      await again.ship(),
      { frames: 0, chunks: 0, bytes: 0, changes: 0, tagRuns: 0 },
      'the same log started again has nothing to add',
    );
    t.equal(
      (await link.jsm.streams.info('RACE')).state.last_seq,
      sequence,
      "the stream holds the first publisher's alone",
    );
  });

  t.test('behavior: a replica refuses a directory it did not fill from the stream', async (t) => {
    const run = await runTallyAsync(['replica', '--nats', cluster.url, '--data', plain, '--port', '0']);
    t.equal(run.code, 1);
    t.match(run.stderr, /holds a log that was not read from a stream: a replica starts from an empty data directory/);
  });

  t.test('behavior: publish names a cluster that does not answer', async (t) => {
    const run = await runTallyAsync([
      'publish',
      '--nats',
      'nats://127.0.0.1:1',
      '--data',
      emptyDataDir(inputs, 'nowhere'),
    ]);
    t.equal(run.code, 1);
    t.match(run.stderr, /publish: no NATS server answers at nats:\/\/127\.0\.0\.1:1/);
  });
}
