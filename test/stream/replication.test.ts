// Issue 26 items 4-6: a capture folded by `tally publish` into a 3-server JetStream cluster and by two `tally
// replica`s from there. Mid-run the publisher, the second replica and the NATS server the first replica's consumer
// lives on are SIGKILLed; the publisher is started again while that server is down, then the server and the
// replica. Both replicas must end with the per-block checksums of a plain `tally ingest` of the same capture and a
// log byte for byte the publisher's (no frame lost, none twice), and /v1/health must give the stream sequence, the
// block and its checksum.
import t from 'tap';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { createIngestedDemo } from '../fixtures/demoData.js';
import { emptyDataDir } from '../fixtures/demoVenue.js';
import { findNatsServer, startNatsCluster } from '../fixtures/natsCluster.js';
import { processTempDir } from '../fixtures/processTempDir.js';
import { runTallyAsync } from '../fixtures/runTally.js';
import { startTallyRun, type TallyRun } from '../fixtures/tallyRun.js';

const BIN = fileURLToPath(new URL('../../cli/tally.mjs', import.meta.url));

if (findNatsServer() === null) {
  // Under CI the server is part of the install (npm's pretest step); elsewhere it may be missing.
  if (process.env.CI) t.fail('no nats-server: the pretest step (test/installSystemPackages.ts) could not install it');
  else t.test('replication', { skip: 'no nats-server installed (apt-get install nats-server)' }, () => {});
} else {
  const { data: plain, inputs } = await createIngestedDemo(12_000, 26);
  const cluster = await startNatsCluster(processTempDir('tally-nats-'));
  t.teardown(() => cluster.stop());
  const nc = await connect({ servers: cluster.urls });
  t.teardown(() => nc.close());
  const jsm = await jetstreamManager(nc);

  const lastSequence = async () => (await jsm.streams.info('TALLY').catch(() => null))?.state.last_seq ?? 0;
  const waitFor = async (what: string, done: () => Promise<boolean>, log = () => '') => {
    for (const started = Date.now(); !(await done()); ) {
      if (Date.now() - started > 120_000) throw new Error(`timed out waiting for ${what}\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const publishArgs = (data: string) => [
    BIN,
    'publish',
    '--nats',
    cluster.url,
    '--data',
    data,
    '--capture',
    inputs.capture,
    '--metadata',
    inputs.metadata,
    '--batch-logs',
    '100',
  ];

  t.test(
    'behavior: replicas fold what the publisher ingests, through kills of a server, a replica and the publisher',
    async (t) => {
      const pub = emptyDataDir(inputs, 'pub');
      const dirs = [emptyDataDir(inputs, 'r1'), emptyDataDir(inputs, 'r2')];
      const replicaArgs = ['--nats', cluster.url, '--stall-seconds', '1'];
      const replicas: TallyRun[] = [];
      for (const dir of dirs) replicas.push(await startTallyRun(dir, replicaArgs, 'replica'));
      t.teardown(() => Promise.all(replicas.map((replica) => replica.stop())));

      const first = spawn(process.execPath, publishArgs(pub), { stdio: ['ignore', 'ignore', 'pipe'] });
      let firstErr = '';
      first.stderr.on('data', (chunk) => (firstErr += chunk));
      const firstExit = new Promise((resolve) => first.on('exit', resolve));

      // Mid-run (15 of about 500 messages): the publisher and the second replica die, then the server the first
      // replica's consumer lives on. The publisher is started again while that server is down.
      await waitFor(
        '15 messages',
        async () => (await lastSequence()) >= 15,
        () => firstErr,
      );
      t.equal(first.exitCode, null, `the publisher is killed mid-run ${firstErr}`);
      first.kill('SIGKILL');
      process.kill(replicas[1]!.pid, 'SIGKILL');
      await firstExit;
      const cut = await lastSequence();
      let consumerServer: string | undefined;
      for await (const info of jsm.consumers.list('TALLY')) {
        if (info.name.startsWith(`tally_replica_${replicas[0]!.pid}`)) consumerServer = info.cluster?.leader;
      }
      t.ok(consumerServer, `the first replica's consumer is on server ${consumerServer}`);
      const killed = Number(consumerServer!.slice(1));
      await cluster.kill(killed);

      const second = await runTallyAsync(publishArgs(pub).slice(1));
      t.equal(
        second.code,
        0,
        `the publisher started again finishes: ${second.stderr}\n${second.code ? cluster.logTail() : ''}`,
      );
      t.ok((await lastSequence()) > cut, 'and goes on appending where the stream ended');
      await cluster.restart(killed);
      replicas[1] = await startTallyRun(dirs[1]!, replicaArgs, 'replica');

      const plainStore = openStateStore({ dir: join(plain, 'state'), readOnly: true });
      const plainState = createStateReader(plainStore);
      const cursor = plainState.cursor();
      const plainBlocks = [...plainState.blocks()];
      await plainStore.close();
      const sequence = await lastSequence();
      for (const [i, replica] of replicas.entries()) {
        const health = async () => (await (await replica.get('/health')).json()) as any;
        await waitFor(
          `replica ${i + 1} at block ${cursor.block}`,
          async () => (await health()).block === cursor.block,
          () => replica.stderr(),
        );
        const answer = await health();
        t.equal(answer.checksum, cursor.checksum, `replica ${i + 1}: /v1/health gives the plain ingest's checksum`);
        t.same(answer.stream, { name: 'TALLY', sequence }, `replica ${i + 1}: and the stream's last sequence`);
      }
      t.match(replicas[0]!.stderr(), /replica: .*; reading the stream anew/, 'the stalled consumer was made anew');
      for (const replica of replicas) await replica.stop();
      replicas.length = 0;

      const segments = readdirSync(join(pub, 'log')).filter((name) => name.endsWith('.seg'));
      t.ok(segments.length > 0, 'the publisher logged the capture');
      for (const dir of [pub, ...dirs]) {
        const store = openStateStore({ dir: join(dir, 'state'), readOnly: true });
        t.same(
          [...createStateReader(store).blocks()],
          plainBlocks,
          `${dir}: every block's checksum is the plain ingest's`,
        );
        await store.close();
        if (dir === pub) continue;
        for (const segment of segments)
          t.ok(
            readFileSync(join(dir, 'log', segment)).equals(readFileSync(join(pub, 'log', segment))),
            `${dir}: log segment ${segment} holds the publisher's bytes: no frame lost, none twice`,
          );
      }
    },
  );
}
