// Issue 22, item 3: verify while an ingest folds compares the log as of the state's cursor and passes, saying a
// fold is running; it never reports a consistent service as FAILED. Once the ingest is done it passes plainly.
import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStateStore, type StateStore } from '../../engine/state/openStateStore.js';
import { readFoldCursor } from '../../engine/state/foldCursor.js';
import { createDemoInputs, emptyDataDir } from '../fixtures/demoVenue.js';
import { runTallyAsync } from '../fixtures/runTally.js';

const BIN = fileURLToPath(new URL('../../cli/tally.mjs', import.meta.url));
const inputs = await createDemoInputs(100, 7);

/** The state's folded block, -1 before the first commit. */
async function foldedBlock(data: string): Promise<number> {
  if (!existsSync(join(data, 'state', 'data.mdb'))) return -1;
  const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
  try {
    // A read-only open between the environment's creation and its first commit finds no meta database yet.
    return (store.dbs.meta as StateStore['dbs']['meta'] | undefined) ? readFoldCursor(store).block : -1;
  } finally {
    await store.close();
  }
}

t.test(
  "behavior: verify during a slow ingest passes through the state's cursor and says a fold is running",
  async (t) => {
    const data = emptyDataDir(inputs, 'data');
    // One block a batch: the fold takes seconds, and verify runs while it goes on.
    const ingest = spawn(
      process.execPath,
      [BIN, 'ingest', '--data', data, '--capture', inputs.capture, '--batch-logs', '1'],
      { stdio: 'ignore' },
    );
    const ingestDone = new Promise<number | null>((resolve) => ingest.on('exit', (code) => resolve(code)));
    t.teardown(() => ingest.kill());
    while ((await foldedBlock(data)) < 0) await sleep(50);
    const verify = await runTallyAsync(['verify', '--data', data]);
    t.equal(ingest.exitCode, null, 'the ingest was still folding when verify finished');
    t.notMatch(verify.stdout + verify.stderr, /FAILED/);
    t.equal(verify.code, 0, verify.stdout + verify.stderr);
    t.match(
      verify.stdout,
      /^verify: ok, \d+ blocks, checksum [0-9a-f]{64}; a fold is running \(process \d+ holds the log\): the \d+ blocks it has appended beyond block \d+ are not compared\n$/,
    );
    t.equal(await ingestDone, 0, 'the ingest completes');
    const after = await runTallyAsync(['verify', '--data', data]);
    t.equal(after.code, 0, after.stdout + after.stderr);
    t.match(after.stdout, /^verify: ok, \d+ blocks, checksum [0-9a-f]{64}\n$/, 'no fold running now');
  },
);
