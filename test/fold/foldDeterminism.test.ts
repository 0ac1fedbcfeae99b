// Same log, same bytes: one worker or several, batch sizes, a fold killed with SIGKILL at random points and
// resumed, replay to a block and rewind all reach the same per-block checksums and byte-identical state, on a demo
// venue with the 2026 era (Protocol V2 and combos).
import t from 'tap';
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { POLYGON_ADDRESSES as A } from '../../engine/chain/venueAddresses.js';
import type { BlockRecord } from '../../engine/state/foldCursor.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { createDemoInputs } from '../fixtures/demoVenue.js';
import { runTally } from '../fixtures/runTally.js';
import { stateDigest } from '../../engine/state/stateDigest.js';

// With the 2026 era: the second ledger's moves, combos and V3 fills are in every comparison and under the kills.
const inputs = await createDemoInputs(6_000, 7, { protocolV2: true });
const BIN = fileURLToPath(new URL('../../cli/tally.mjs', import.meta.url));

function dataDir(name: string): string {
  const dir = join(inputs.dir, name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(inputs.config, join(dir, 'config.json'));
  return dir;
}

async function checksums(dir: string): Promise<{ cursor: string; block: number; blocks: BlockRecord[] }> {
  const store = openStateStore({ dir: join(dir, 'state'), readOnly: true });
  const state = createStateReader(store);
  const cursor = state.cursor();
  const blocks = [...state.blocks()];
  await store.close();
  return { cursor: cursor.checksum, block: cursor.block, blocks };
}

const reference = dataDir('one-worker');
const first = runTally(['ingest', '--data', reference, '--capture', inputs.capture, '--workers', '1']);
const referenceSums = await checksums(reference);
const referenceDigest = await stateDigest(join(reference, 'state'));

t.test('default: the demo log folds', async (t) => {
  t.equal(first.code, 0, first.stderr);
  t.ok(referenceSums.blocks.length > 100, `${referenceSums.blocks.length} blocks folded`);
  const capture = readFileSync(inputs.capture, 'utf8');
  for (const contract of ['positionManager', 'exchangeV3', 'combinatorialModule'] as const)
    t.ok(capture.includes(`"address":"${A[contract]}"`), `the log holds ${contract} events`);
});

t.test('behavior: several workers and other batch sizes give identical checksums and state', async (t) => {
  for (const [name, workers, batchLogs] of [
    ['three-workers', '3', '777'],
    ['tiny-batches', '2', '50'],
  ] as const) {
    const dir = dataDir(name);
    // The tiny batches also release the state map every 2,000 events (every thread closes and reopens it), and
    // keep so few positions cached that a worker trims its cache between nearly every two batches, while the
    // previous batch is still being written.
    const run = runTally([
      'ingest',
      '--data',
      dir,
      '--capture',
      inputs.capture,
      '--workers',
      workers,
      '--batch-logs',
      batchLogs,
      '--release-every',
      '2000',
      '--position-cache',
      '64',
    ]);
    t.equal(run.code, 0, run.stderr);
    const sums = await checksums(dir);
    t.equal(sums.cursor, referenceSums.cursor, `${name}: same final checksum`);
    t.same(
      sums.blocks.map((b) => b.checksum),
      referenceSums.blocks.map((b) => b.checksum),
      `${name}: same checksum for every block`,
    );
    t.equal(await stateDigest(join(dir, 'state')), referenceDigest, `${name}: byte-identical state`);
  }
});

t.test('behavior: tally verify passes and replay reproduces a block', async (t) => {
  const verify = runTally(['verify', '--data', reference, '--workers', '2']);
  t.equal(verify.code, 0, verify.stdout + verify.stderr);
  const middle = referenceSums.blocks[Math.floor(referenceSums.blocks.length / 2)]!;
  const out = join(inputs.dir, 'replayed');
  const replay = runTally(['replay', '--data', reference, '--to-block', String(middle.block), '--out', out]);
  t.equal(replay.code, 0, replay.stderr);
  const replayed = await checksums(out);
  t.equal(replayed.block, middle.block);
  t.equal(replayed.cursor, middle.checksum, 'the replayed state ends on the stored checksum of that block');
});

t.test('behavior: rewind then re-ingest returns to the same state', async (t) => {
  // A copy of the reference (folded with one worker, the default), not a fold of its own.
  const dir = join(inputs.dir, 'rewound');
  cpSync(reference, dir, { recursive: true });
  const target = referenceSums.blocks[Math.floor(referenceSums.blocks.length / 3)]!;
  const rewind = runTally(['rewind', '--data', dir, '--to-block', String(target.block)]);
  t.equal(rewind.code, 0, rewind.stderr);
  t.equal((await checksums(dir)).cursor, target.checksum);
  t.equal(runTally(['ingest', '--data', dir, '--capture', inputs.capture]).code, 0);
  t.equal(await stateDigest(join(dir, 'state')), referenceDigest);
});

// Five kills in the suite (each costs a tally start and a fold to the end); TALLY_TEST_KILLS=20 and more for a
// longer hunt.
const KILLS = Number(process.env.TALLY_TEST_KILLS ?? 5);

t.test(`behavior: a fold killed with SIGKILL at ${KILLS} random points resumes to the same checksums`, async (t) => {
  const seed = Number(process.env.TALLY_TEST_SEED ?? Date.now() % 100_000);
  t.comment(`seed ${seed} (rerun with TALLY_TEST_SEED=${seed})`);
  let state = seed;
  const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
  const dir = dataDir('killed');
  const logBytes = () => {
    const log = join(dir, 'log');
    if (!existsSync(log)) return 0;
    return readdirSync(log)
      .filter((f) => f.endsWith('.seg'))
      .reduce((n, f) => n + statSync(join(log, f)).size, 0);
  };
  // Each run is killed a random moment after it starts appending (so mid-fold, not during start-up).
  let kills = 0;
  while (kills < KILLS) {
    const before = logBytes();
    const child = spawn(
      process.execPath,
      [BIN, 'ingest', '--data', dir, '--capture', inputs.capture, '--batch-logs', '300'],
      { stdio: 'ignore' },
    );
    const exited = new Promise<string>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? String(code))),
    );
    let done = false;
    void exited.then(() => {
      done = true;
    });
    while (!done && logBytes() === before) await new Promise((r) => setTimeout(r, 5));
    if (done) break;
    await new Promise((r) => setTimeout(r, random() * 150));
    child.kill('SIGKILL');
    if ((await exited) !== 'SIGKILL') break;
    kills++;
  }
  t.ok(kills >= KILLS, `${kills} kills landed mid-ingest`);
  const finish = runTally(['ingest', '--data', dir, '--capture', inputs.capture]);
  t.equal(finish.code, 0, finish.stderr);
  const sums = await checksums(dir);
  t.equal(sums.cursor, referenceSums.cursor, 'same final checksum');
  t.same(
    sums.blocks.map((b) => b.checksum),
    referenceSums.blocks.map((b) => b.checksum),
    'same checksum for every block',
  );
  t.equal(await stateDigest(join(dir, 'state')), referenceDigest, 'byte-identical state');
});
