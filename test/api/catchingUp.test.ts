// While the state backfills (engine/README.md, Backfill), `tally serve` answers its state routes 503 `catching up:
// block X of Y` with Retry-After, never from the stale owner-first tables; /v1/health and /metrics show the mode and
// the target, and the OpenAPI document lists the 503. Once the hand-off is made (here by this process, while the
// server runs), the same requests are answered again.
import t from 'tap';
import { join } from 'node:path';
import { openEventLog } from '../../engine/log/eventLog.js';
import { handOffPositions } from '../../engine/fold/handOffPositions.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import { createDemoInputs, emptyDataDir } from '../fixtures/demoVenue.js';
import { moveToWorkingTable } from '../fixtures/backfillingState.js';
import { runTally } from '../fixtures/runTally.js';
import { startTallyRun } from '../fixtures/tallyRun.js';

const inputs = await createDemoInputs(2_000, 5);
const data = emptyDataDir(inputs, 'venue');
const ingest = runTally(['ingest', '--data', data, '--capture', inputs.capture]);

const stateDir = join(data, 'state');
const store = openStateStore({ dir: stateDir });
const reader = createStateReader(store);
const cursor = reader.cursor();
const holder = reader.positionHolders()[Symbol.iterator]().next().value!.wallet;
const record = { since: -1, positionsEmpty: true, target: cursor.block + 5_000, loading: -1, entries: 0 };
moveToWorkingTable(store, record);
// This process holds the log's writer lock: the server, finding another process folding, serves the state as it is.
const log = openEventLog({ dir: join(data, 'log') });
const server = await startTallyRun(data, [], 'serve');
t.teardown(async () => {
  await server.stop();
  log.close();
  await store.close();
});

t.test('default: the venue folded', async (t) => {
  t.equal(ingest.code, 0, ingest.stderr);
  t.match(holder, /^0x[0-9a-f]{40}$/);
  t.equal(reader.idNumber(ID_SPACE.address, holder) !== null, true);
});

t.test('error: state routes answer 503 catching up, with Retry-After, while the state backfills', async (t) => {
  for (const path of [`/wallets/${holder}/positions`, `/wallets/${holder}/trades`, '/leaderboard', '/markets']) {
    const answer = await server.get(path);
    t.equal(answer.status, 503, path);
    const body = (await answer.json()) as { error: string };
    t.equal(body.error, `catching up: block ${cursor.block} of ${record.target}`, `${path}: the text`);
    const retry = Number(answer.headers.get('retry-after'));
    t.ok(retry >= 5 && retry <= 60, `${path}: Retry-After ${retry}`);
  }
});

t.test('default: health and metrics show the backfill', async (t) => {
  const health = await server.get('/health');
  t.equal(health.status, 200);
  const body = (await health.json()) as { status: string; block: number; fold: Record<string, unknown> };
  t.equal(body.status, 'degraded');
  t.equal((body as unknown as { ready: boolean }).ready, false);
  t.equal(body.block, cursor.block);
  t.same(body.fold, { mode: 'backfill', target: record.target, blocksPerSecond: 0, etaSeconds: null });
  const ready = await server.get('/ready');
  t.equal(ready.status, 503, 'not ready while backfilling: a load balancer sends it no traffic');
  t.same(await ready.json(), {
    error: `not ready: the state is backfilling (block ${cursor.block} of ${record.target})`,
  });
  const metrics = await (await fetch(server.base.replace(/\/v1$/, '/metrics'))).text();
  t.match(metrics, /^tally_fold_backfill 1$/m);
  t.match(metrics, new RegExp(`^tally_fold_target_block ${record.target}$`, 'm'));
  const document = (await (await server.get('/openapi.json')).json()) as {
    paths: Record<string, { get: { responses: Record<string, { description: string }> } }>;
  };
  t.match(document.paths['/v1/wallets/{wallet}/positions']!.get.responses['503']!.description, /^catching up/);
  t.notMatch(
    document.paths['/v1/health']!.get.responses['503']!.description,
    /catching up/,
    'health answers while catching up (its one 503 is the counters full, as every keyed route)',
  );
});

t.test('behavior: once handed off, the same requests are answered from the built positions', async (t) => {
  const result = await handOffPositions(store, record, { stateDir, release: () => store.reopen() });
  t.ok(result.positions > 100, `${result.positions} positions`);
  const answer = await server.get(`/wallets/${holder}/positions`);
  t.equal(answer.status, 200);
  const body = (await answer.json()) as { positions: unknown[] };
  t.ok(body.positions.length > 0, `${body.positions.length} positions of ${holder}`);
  const health = (await (await server.get('/health')).json()) as { fold: { mode: string; target: number | null } };
  t.same(health.fold.mode, 'live');
  t.equal(health.fold.target, null);
  const metrics = await (await fetch(server.base.replace(/\/v1$/, '/metrics'))).text();
  t.match(metrics, /^tally_fold_backfill 0$/m);
});
