// `tally run` while its node goes away for longer than a retry budget and comes back (issue 22 item 1): the API
// keeps answering from the folded state, /v1/health shows the outage (since when, failed attempts, the last
// cause) and says degraded, one line a minute at most is printed, the fold resumes when the node returns, and the
// state ends equal to a plain ingest of the same chain.
import t from 'tap';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalChain } from '../fixtures/localChain.js';
import { runTallyAsync } from '../fixtures/runTally.js';
import { stateDigest } from '../../engine/state/stateDigest.js';
import { startSwitchableProxy } from '../fixtures/switchableProxy.js';
import { startTallyRun } from '../fixtures/tallyRun.js';
import { emitVenueScenario, mineTransfer } from '../fixtures/venueScenario.js';
import { isSourceRecord } from '../fixtures/sourceRecords.js';

const chain = await startLocalChain();
t.teardown(() => chain.close());
const scenario = await emitVenueScenario(chain);
const proxy = await startSwitchableProxy(chain.url);
t.teardown(() => proxy.close());
const root = mkdtempSync(join(tmpdir(), 'tally-outage-'));
/** A retry cap of 200 ms: the 8 retries an ingest allows would be spent in about 1.5 s. */
const MAX_BACKOFF_MS = 200;

function dataDir(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ addresses: scenario.config, rpc: { maxBackoffMs: MAX_BACKOFF_MS } }),
  );
  return dir;
}

async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  log: () => string,
): Promise<T> {
  for (let waited = 0; ; waited += 100) {
    const value = await read();
    if (done(value)) return value;
    if (waited > 60_000) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

t.test('behavior: tally run serves through an outage of its node and resumes when it returns', async (t) => {
  const data = dataDir('run');
  const run = await startTallyRun(data, ['--rpc', proxy.url]);
  const log = () => run.stdout() + run.stderr();
  try {
    const get = async (path: string) => {
      const response = await run.get(path);
      return { status: response.status, body: (await response.json()) as any };
    };
    const health = () => get('/health').then((answer) => answer.body);
    const caughtUp = await waitFor('the catch-up', health, (h) => h.block === scenario.eventBlocks.at(-1), log);
    t.equal(caughtUp.outage, null, 'no outage while the node answers');
    t.equal(caughtUp.status, 'ok');

    await proxy.off();
    // A block mined while the node is unreachable to tally: the fold must pick it up after the outage.
    const mined = await mineTransfer(chain, scenario);
    const during = await waitFor('the outage in health', health, (h) => h.outage?.failedAttempts > 12, log);
    t.equal(during.status, 'degraded');
    t.equal(during.block, caughtUp.block, 'still the folded block');
    t.match(during.outage, { since: Number, failedAttempts: Number, lastError: /ECONNREFUSED|fetch failed|socket/i });
    t.ok(during.lagSeconds >= 0);
    t.equal(
      (await get(`/wallets/${chain.accounts[2]!.toLowerCase()}/positions`)).status,
      200,
      'wallet answers keep coming',
    );
    t.equal(run.exitCode(), null, 'the process lives past the budget an ingest would have spent');
    t.equal(run.stderr().match(/the node stopped answering/g)?.length, 1, 'the outage is told once, not once a retry');

    await proxy.on();
    const after = await waitFor('the fold to resume', health, (h) => h.block === mined && h.outage === null, log);
    t.equal(after.status, 'ok');
    t.match(run.stderr(), /the node answers again after \d+ s \(\d+ failed attempts\)/);
  } finally {
    t.equal(await run.stop(), 0, log());
  }

  const plain = dataDir('plain');
  const ingest = await runTallyAsync(['ingest', '--data', plain, '--rpc', chain.url]);
  t.equal(ingest.code, 0, ingest.stderr);
  t.equal(
    await stateDigest(join(data, 'state'), isSourceRecord),
    await stateDigest(join(plain, 'state'), isSourceRecord),
    'the state equals a plain ingest',
  );
});
