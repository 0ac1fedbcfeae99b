// Issue 38 item 4: replicas that agree to the byte. A publisher folds the demo's capture with no metadata, then
// metadata, profiles and a changed tag run reach its directory afterwards (`tally metadata`, `tally profiles`) and
// are sent by `tally publish` with no capture. Two replicas must answer every route of the demo with the publisher's
// bytes, and /v1/health's answers checksum must agree exactly when the answers do: a copy of a replica taken one
// metadata change before the end answers a market differently, and says so in its checksum.
import t from 'tap';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { createIngestedDemo } from '../fixtures/demoData.js';
import { emptyDataDir } from '../fixtures/demoVenue.js';
import { findNatsServer, startNatsCluster } from '../fixtures/natsCluster.js';
import { processTempDir } from '../fixtures/processTempDir.js';
import { runTallyAsync } from '../fixtures/runTally.js';
import { startTallyRun, type TallyRun } from '../fixtures/tallyRun.js';

interface Health {
  block: number;
  rollups: { leaderboard: number | null };
  checksum: string;
  answers: { checksum: string; metadata: string; profiles: string; keys: string; tags: string | null };
}

if (findNatsServer() === null) {
  if (process.env.CI) t.fail('no nats-server: the pretest step (test/installSystemPackages.ts) could not install it');
  else t.test('replicas agree', { skip: 'no nats-server installed (apt-get install nats-server)' }, () => {});
} else {
  const { inputs } = await createIngestedDemo(12_000, 26);
  const cluster = await startNatsCluster(processTempDir('tally-nats-'));
  t.teardown(() => cluster.stop());
  const tally = async (...args: string[]) => {
    const run = await runTallyAsync(args);
    if (run.code !== 0) throw new Error(`tally ${args.join(' ')}: ${run.stderr}`);
    return run;
  };
  const health = async (run: TallyRun) => (await (await run.get('/health')).json()) as Health;
  const waitFor = async (what: string, done: () => Promise<boolean>, log: () => string) => {
    for (const started = Date.now(); !(await done()); ) {
      if (Date.now() - started > 120_000) throw new Error(`timed out waiting for ${what}\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  t.test('behavior: off-chain data published after the log reaches replicas, and the checksum covers it', async (t) => {
    const pub = emptyDataDir(inputs, 'pub');
    const keyOf = async () => (await tally('keys', 'create', '--data', pub)).stdout.trim().split('\n').at(-1)!;
    const key = await keyOf();
    // A second key, revoked on the publisher's directory after the log: revoked on every replica.
    const revoked = await keyOf();
    const dirs = [emptyDataDir(inputs, 'r1'), emptyDataDir(inputs, 'r2')];
    const replicaArgs = ['--nats', cluster.url, '--stall-seconds', '1'];
    const servers: TallyRun[] = [];
    t.teardown(() => Promise.all(servers.map((server) => server.stop())));
    const startReplica = async (i: number) => {
      const replica = await startTallyRun(dirs[i]!, replicaArgs, 'replica', { key });
      servers.push(replica);
      return replica;
    };
    const replicas = [await startReplica(0), await startReplica(1)];
    const publish = (...more: string[]) => tally('publish', '--nats', cluster.url, '--data', pub, ...more);
    const logs = () => replicas.map((replica) => replica.stderr()).join('\n');
    /** The publisher's last block. */
    const publishedBlock = async () => {
      const store = openStateStore({ dir: join(pub, 'state'), readOnly: true });
      const block = createStateReader(store).cursor().block;
      await store.close();
      return block;
    };
    /**
     * Every replica's health once each has folded the publisher's last block and rolled its board up there, with
     * the same answers checksum, and `done` holds for their health.
     */
    const agreeing = async (done: (health: Health) => boolean = () => true) => {
      const block = await publishedBlock();
      let answers: Health[] = [];
      await waitFor(
        `the replicas to agree at block ${block}`,
        async () => {
          answers = await Promise.all(replicas.map((replica) => health(replica).catch(() => null!)));
          return answers.every(
            (a) =>
              a?.block === block &&
              a.rollups.leaderboard === block &&
              a.answers.checksum === answers[0]!.answers.checksum &&
              done(a),
          );
        },
        () => `${JSON.stringify(answers)}\n${logs()}`,
      );
      return answers[0]!;
    };

    await publish('--capture', inputs.capture);
    const atLog = await agreeing();
    t.ok(atLog.answers.tags, 'the log alone passed a midnight: a tag run came with it');

    // Metadata with one question changed, then the profiles of three traders: stored in the publisher's directory
    // after its fold (the tag run is made again, now that the rounds are known) and sent by a publish alone.
    const markets = JSON.parse(readFileSync(inputs.metadata, 'utf8')) as Array<Record<string, unknown>>;
    const board = (await (await replicas[0]!.get('/leaderboard?limit=3')).json()) as { rows: { wallet: string }[] };
    const wallets = board.rows.map((row) => row.wallet);
    t.equal(wallets.length, 3, 'three traders on the board');
    let market: string | undefined;
    for (const object of markets) {
      if ((await replicas[0]!.get(`/markets/${object.conditionId}`)).status === 200) {
        market = object.conditionId as string;
        break;
      }
    }
    t.ok(market, `a market of the metadata that the log prepared: ${market}`);
    const edited = join(processTempDir('tally-meta-'), 'edited.json');
    writeFileSync(
      edited,
      JSON.stringify(markets.map((m) => (m.conditionId === market ? { ...m, question: `${m.question} (edited)` } : m))),
    );
    await tally('metadata', '--data', pub, '--file', edited);
    const profiles = join(processTempDir('tally-profiles-'), 'profiles.json');
    writeFileSync(
      profiles,
      JSON.stringify(wallets.map((wallet, i) => ({ proxyWallet: wallet, name: `Trader ${i}`, pseudonym: `t${i}` }))),
    );
    await tally('profiles', '--data', pub, '--file', profiles);
    const withRevoked = (run: TallyRun) =>
      fetch(`${run.base}/health`, { headers: { authorization: `Bearer ${revoked}` } }).then((r) => r.status);
    t.same(await Promise.all(replicas.map(withRevoked)), [200, 200], 'the second key works on both replicas');
    await tally('keys', 'revoke', '--data', pub, revoked);
    const shipped = await publish();
    t.match(shipped.stderr, /publish/, 'a publish with no capture sends what the directory holds beyond the stream');
    const withMetadata = await agreeing(
      (h) => h.answers.tags !== atLog.answers.tags && h.answers.profiles !== atLog.answers.profiles,
    );
    t.not(withMetadata.answers.tags, atLog.answers.tags, 'the tag run made again with the rounds reached the replicas');
    t.not(withMetadata.answers.checksum, atLog.answers.checksum, 'and the answers checksum moved with the data');
    t.same(await Promise.all(replicas.map(withRevoked)), [401, 401], 'the key revoked on the publisher is refused');

    // A copy of the second replica, one metadata change behind the end.
    await replicas[1]!.stop();
    servers.splice(servers.indexOf(replicas[1]!), 1);
    const behind = join(processTempDir('tally-behind-'), 'r2-behind');
    cpSync(dirs[1]!, behind, { recursive: true });
    replicas[1] = await startReplica(1);
    await tally('metadata', '--data', pub, '--file', inputs.metadata);
    await publish();
    const final = await agreeing((h) => h.answers.metadata !== withMetadata.answers.metadata);
    t.equal(final.answers.tags, withMetadata.answers.tags, 'a question changed, not a round: the same tag run');

    const publisher = await startTallyRun(pub, [], 'serve', { key });
    servers.push(publisher);
    const stale = await startTallyRun(behind, [], 'serve', { key });
    servers.push(stale);
    const all = [publisher, ...replicas];
    const healths = await Promise.all(all.map(health));
    t.same(
      healths.map((h) => h.answers),
      healths.map(() => healths[0]!.answers),
      "the publisher's and both replicas' answers checksums and digests are equal",
    );
    t.same(
      healths.map((h) => h.checksum),
      healths.map(() => healths[0]!.checksum),
      'and so are their block checksums',
    );
    const staleHealth = await health(stale);
    t.equal(staleHealth.checksum, healths[0]!.checksum, 'the copy one change behind holds the same block checksum');
    t.not(staleHealth.answers.checksum, healths[0]!.answers.checksum, 'but another answers checksum');
    t.not(staleHealth.answers.metadata, healths[0]!.answers.metadata, 'its metadata digest differs');

    const tags = (await (await publisher.get('/wallets/tags')).json()) as { tags: Record<string, { kind: string }> };
    const kinds = Object.values(tags.tags).map((tag) => tag.kind);
    t.ok(kinds.includes('updown-bot'), `the publisher's run knows the rounds: ${kinds.length} wallets tagged`);
    const wallet = wallets[0]!;
    const paths = [
      `/markets/${market}`,
      `/markets/${market}/traders`,
      `/markets/${market}/top-traders`,
      `/markets/${market}/holder-lines`,
      `/markets/${market}/trades`,
      `/markets/${market}/trade-counts?wallets=${wallets.join(',')}`,
      `/wallets/${wallet}/positions?status=open`,
      `/wallets/${wallet}/positions?status=closed`,
      `/wallets/${wallet}/positions`,
      `/wallets/${wallet}/closed-positions`,
      `/wallets/${wallet}/trades`,
      `/wallets/${wallet}/stats`,
      `/wallets/${wallet}/stats?period=7d`,
      `/wallets/${wallet}/categories`,
      '/leaderboard',
      '/leaderboard?period=30d&sort=volume',
      '/wallets/tags',
      `/wallets/profiles?wallets=${wallets.join(',')}`,
      '/events/heat',
      '/crypto/strikes',
      '/markets?q=will',
    ];
    for (const path of paths) {
      const bodies = await Promise.all(all.map(async (server) => (await server.get(path)).text()));
      t.ok(
        bodies.every((body) => body === bodies[0]),
        `${path}: the same ${bodies[0]!.length} bytes from the publisher and both replicas`,
      );
    }
    const [now, then] = await Promise.all(
      [publisher, stale].map(async (s) => (await s.get(`/markets/${market}`)).text()),
    );
    t.not(then, now, 'the copy one change behind answers the changed market otherwise');
    t.match(then, /\(edited\)/, 'with the question it had');
  });
}
