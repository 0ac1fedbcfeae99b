// Backfill (engine/README.md, Backfill): a fold from nothing, or far behind its source, keeps positions in a
// token-first working table and builds `positions` at the hand-off. Every table and every block record must equal a
// live-mode fold's, for any worker count and batch size, from an empty state or a state holding positions, after a
// kill mid-backfill, and after a hand-off killed part-way.
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BACKFILL_BEHIND_BLOCKS } from '../../engine/limits.js';
import { BACKFILL_KEY, readBackfillRecord, type BackfillRecord } from '../../engine/state/backfillRecord.js';
import { moveToWorkingTable } from '../fixtures/backfillingState.js';
import { openStateStore, type StateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { collectRuns, handOffPositions } from '../../engine/fold/handOffPositions.js';
import { mergeRunFiles } from '../../engine/fold/walletFirstRuns.js';
import { positionKey } from '../../engine/state/stateKeys.js';
import { createDemoInputs, emptyDataDir } from '../fixtures/demoVenue.js';
import { runTally } from '../fixtures/runTally.js';
import { stateDigest } from '../../engine/state/stateDigest.js';

const inputs = await createDemoInputs(6_000, 11, { protocolV2: true });

const dataDir = (name: string) => emptyDataDir(inputs, name);

async function blockSums(dir: string): Promise<string[]> {
  const store = openStateStore({ dir: join(dir, 'state'), readOnly: true });
  const sums = [...createStateReader(store).blocks()].map((b) => `${b.block}:${b.checksum}`);
  await store.close();
  return sums;
}

/** What the state says of its mode: the backfill record, and how many entries the working table holds. */
async function mode(dir: string): Promise<{ backfilling: boolean; working: number; positions: number }> {
  const store = openStateStore({ dir: join(dir, 'state'), readOnly: true });
  const result = {
    backfilling: readBackfillRecord(store) !== null,
    working: store.dbs.backfillPositions.getKeysCount(),
    positions: store.dbs.positions.getKeysCount(),
  };
  await store.close();
  return result;
}

const live = dataDir('live');
const liveRun = runTally(['ingest', '--data', live, '--capture', inputs.capture, '--live']);
const liveSums = await blockSums(live);
const liveDigest = await stateDigest(join(live, 'state'));

t.test('default: a live-mode fold never backfills', async (t) => {
  t.equal(liveRun.code, 0, liveRun.stderr);
  t.notMatch(liveRun.stderr, /backfilled/);
  t.ok(liveSums.length > 100, `${liveSums.length} blocks`);
  const { backfilling, working, positions } = await mode(live);
  t.notOk(backfilling);
  t.equal(working, 0);
  t.ok(positions > 1_000, `${positions} positions`);
});

t.test(
  'behavior: a backfill from nothing equals the live fold, for 1, 2 and 4 workers and two batch sizes',
  async (t) => {
    for (const [workers, batchLogs] of [
      ['1', '12500'],
      ['2', '12500'],
      ['4', '333'],
    ] as const) {
      const name = `backfill-${workers}w-${batchLogs}`;
      const dir = dataDir(name);
      const cache = batchLogs === '333' ? '64' : '100000';
      const flags = ['--workers', workers, '--batch-logs', batchLogs, '--position-cache', cache];
      const run = runTally(['ingest', '--data', dir, '--capture', inputs.capture, ...flags]);
      t.equal(run.code, 0, run.stderr);
      t.match(run.stderr, /ingest: backfilled; positions built from the working table: \d+ positions/, name);
      t.same(await blockSums(dir), liveSums, `${name}: every block record's checksum`);
      t.equal(await stateDigest(join(dir, 'state')), liveDigest, `${name}: every table byte-identical`);
      t.same((await mode(dir)).backfilling, false, `${name}: live after the hand-off`);
      t.equal((await mode(dir)).working, 0, `${name}: the working table emptied`);
    }
    const verify = runTally(['verify', '--data', join(inputs.dir, 'backfill-2w-12500'), '--workers', '2']);
    t.equal(verify.code, 0, verify.stdout + verify.stderr);
  },
);

t.test(
  'behavior: a capture read from a pipe (its end unknown) backfills an empty state to the same bytes',
  async (t) => {
    const dir = dataDir('piped');
    const pipe = join(inputs.dir, 'piped.ndjson');
    t.equal(spawnSync('mkfifo', [pipe]).status, 0, 'mkfifo made the pipe');
    // The writer is a process of its own (cat, once sh has opened the pipe): the ingest below blocks this thread.
    const writer = spawn('sh', ['-c', 'exec cat "$0" > "$1"', inputs.capture, pipe], { stdio: 'ignore' });
    const written = new Promise((resolve) => writer.on('exit', resolve));
    const run = runTally(['ingest', '--data', dir, '--capture', pipe, '--workers', '2']);
    // An ingest that never opened the pipe would leave the writer waiting for a reader.
    if (run.code !== 0) writer.kill();
    t.equal(run.code, 0, run.stderr);
    t.match(run.stderr, /ingest: backfilled; positions built from the working table/);
    t.same(await blockSums(dir), liveSums, 'every block record');
    t.equal(await stateDigest(join(dir, 'state')), liveDigest, 'every table byte-identical');
    t.equal(await written, 0, 'the whole capture was read');

    // Onto a state that holds blocks, the lines a pipe repeats could not be checked before its read: refused before
    // the pipe is opened (with no writer, an open would wait until the time limit).
    const refused = runTally(['ingest', '--data', dir, '--capture', pipe], {}, 60_000);
    t.equal(refused.code, 1);
    t.match(
      refused.stderr,
      /^tally: --capture \S+piped\.ndjson is a pipe, read once: .* ingest it into an empty data directory/,
    );
    t.equal(await stateDigest(join(dir, 'state')), liveDigest, 'the state untouched');
  },
);

t.test('behavior: a state holding positions backfills the rest of a distant source to the same bytes', async (t) => {
  // The capture cut where more than the threshold of blocks remains: the first part folds live (the state is then
  // near its source), the rest backfills over a `positions` that holds the first part's.
  const lines = readFileSync(inputs.capture, 'utf8').split('\n').filter(Boolean);
  const blockOf = (line: string) => Number(JSON.parse(line).blockNumber);
  const last = blockOf(lines.at(-1)!);
  let cut = lines.findIndex((line) => blockOf(line) > last - BACKFILL_BEHIND_BLOCKS - 1_000);
  t.ok(cut > 100, `the demo spans more than the threshold (cut at line ${cut} of ${lines.length})`);
  // Whole blocks in each part.
  while (blockOf(lines[cut]!) === blockOf(lines[cut - 1]!)) cut--;
  const head = join(inputs.dir, 'head.ndjson');
  writeFileSync(head, lines.slice(0, cut).join('\n') + '\n');
  const dir = dataDir('resumed-far-behind');
  const first = runTally(['ingest', '--data', dir, '--capture', head, '--live']);
  t.equal(first.code, 0, first.stderr);
  const before = await mode(dir);
  t.ok(before.positions > 0, `${before.positions} positions before the backfill`);
  const rest = runTally(['ingest', '--data', dir, '--capture', inputs.capture]);
  t.equal(rest.code, 0, rest.stderr);
  t.match(rest.stderr, /ingest: backfilled/);
  t.same(await blockSums(dir), liveSums);
  t.equal(await stateDigest(join(dir, 'state')), liveDigest);
});

t.test('behavior: a hand-off in many sorted runs, or killed part-way, ends in the same bytes', async (t) => {
  // A state stopped mid-backfill: the capture's first part folded (and handed off), then put back as a backfill
  // begun on the empty state and aimed at the whole capture would hold it before its hand-off.
  const lines = readFileSync(inputs.capture, 'utf8').split('\n').filter(Boolean);
  const blockOf = (line: string) => Number(JSON.parse(line).blockNumber);
  let cut = Math.floor(lines.length * 0.6);
  while (blockOf(lines[cut]!) === blockOf(lines[cut - 1]!)) cut--;
  const head = join(inputs.dir, 'head-60.ndjson');
  writeFileSync(head, lines.slice(0, cut).join('\n') + '\n');
  const stopped = dataDir('stopped-mid-backfill');
  t.equal(runTally(['ingest', '--data', stopped, '--capture', head]).code, 0);
  const record: BackfillRecord = {
    since: -1,
    positionsEmpty: true,
    target: blockOf(lines.at(-1)!),
    loading: -1,
    entries: 0,
  };
  const small = (dir: string, store: StateStore) => ({
    stateDir: join(dir, 'state'),
    release: () => store.reopen(),
    runBytes: 4096,
    // Several releases of the map a run.
    scanBytes: 1000,
    commitWrites: 100,
  });
  /** The copy of the stopped state in `name`, changed by `change`, then the capture ingested whole. */
  const resume = async (name: string, change: (dir: string, store: StateStore) => Promise<void>) => {
    const dir = join(inputs.dir, name);
    cpSync(stopped, dir, { recursive: true });
    const store = openStateStore({ dir: join(dir, 'state') });
    moveToWorkingTable(store, record);
    await change(dir, store);
    await store.close();
    const run = runTally(['ingest', '--data', dir, '--capture', inputs.capture]);
    t.equal(run.code, 0, run.stderr);
    t.same(await blockSums(dir), liveSums, `${name}: every block record`);
    t.equal(await stateDigest(join(dir, 'state')), liveDigest, `${name}: byte-identical`);
    t.notOk(existsSync(join(dir, 'state', 'handoff')), `${name}: no run file left`);
  };

  await resume('many-runs', async (dir, store) => {
    const result = await handOffPositions(store, record, small(dir, store));
    t.ok(result.runFiles > 10, `${result.runFiles} run files`);
    t.ok(result.positions > 1_000, `${result.positions} positions`);
    t.equal(store.dbs.meta.getBinary(BACKFILL_KEY), undefined, 'live once handed off');
  });
  await resume('killed-collecting', async (dir) => {
    // A collect killed part-way leaves run files beside a whole working table.
    mkdirSync(join(dir, 'state', 'handoff'));
    writeFileSync(join(dir, 'state', 'handoff', 'run-0.bin'), 'torn');
  });
  {
    // A run file emptied under a load (a machine that lost it): the load stops, and the state still says loading.
    const dir = join(inputs.dir, 'run-cut-short');
    cpSync(stopped, dir, { recursive: true });
    const store = openStateStore({ dir: join(dir, 'state') });
    moveToWorkingTable(store, record);
    const loading = await collectRuns(store, record, small(dir, store));
    truncateSync(join(dir, 'state', 'handoff', 'run-1.bin'), 0);
    await t.rejects(handOffPositions(store, loading, small(dir, store)), /the runs hold the \d+ positions collected/);
    t.equal(readBackfillRecord(store)?.loading, loading.loading, 'a run cut short: still loading');
    await store.close();
  }
  await resume('killed-loading', async (dir, store) => {
    // A load killed part-way: the working table emptied into run files, half of `positions` appended.
    const loading = await collectRuns(store, record, small(dir, store));
    t.equal(store.dbs.backfillPositions.getKeysCount(), 0, 'the working table is emptied once collected');
    t.same(readBackfillRecord(store), loading);
    let half = 0;
    store.env.transactionSync(() => {
      for (const { wallet, token, value } of mergeRunFiles(
        Array.from({ length: loading.loading }, (_, run) => join(dir, 'state', 'handoff', `run-${run}.bin`)),
      )) {
        if (half++ % 2 === 1) continue;
        store.dbs.positions.putSync(Buffer.from(positionKey(wallet, token), 'latin1'), value);
      }
    });
  });
});

t.test('behavior: run files a live state does not need are removed when it is next folded', async (t) => {
  const dir = join(inputs.dir, 'stray-runs');
  cpSync(live, dir, { recursive: true });
  mkdirSync(join(dir, 'state', 'handoff'));
  writeFileSync(join(dir, 'state', 'handoff', 'run-0.bin'), 'left by a hand-off killed after its record went');
  const run = runTally(['ingest', '--data', dir]);
  t.equal(run.code, 0, run.stderr);
  t.notOk(existsSync(join(dir, 'state', 'handoff')));
  t.equal(await stateDigest(join(dir, 'state')), liveDigest);
});
