// A state its log is ahead of (a killed ingest, a full disk): verify names the block and exits 3, ingest with no
// source catches it up. A state a machine that went down may have torn (its unflushed marker names another
// boot) is folded again before it is served. verify's scratch directory does not outlive it.
import t from 'tap';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../cli/commands/serveCommand.js';
import { createKey } from '../fixtures/apiKey.js';
import { createIngestedDemo } from '../fixtures/demoData.js';
import { emptyDataDir } from '../fixtures/demoVenue.js';
import { runTally } from '../fixtures/runTally.js';
import { stateDigest } from '../../engine/state/stateDigest.js';

const BIN = fileURLToPath(new URL('../../cli/tally.mjs', import.meta.url));
// The demo freshly ingested (its fold shared with test/cli/diskFull.test.ts).
const { inputs, data: fresh } = await createIngestedDemo(300, 9);
const lines = readFileSync(inputs.capture, 'utf8').trimEnd().split('\n');
const blockOf = (line: string) => Number(JSON.parse(line).blockNumber);
// The first half of the capture, to a block's end.
const cut = lines.findIndex((line, i) => i >= lines.length >> 1 && blockOf(line) !== blockOf(lines[i - 1]!));
const half = join(inputs.dir, 'half.ndjson');
writeFileSync(half, lines.slice(0, cut).join('\n') + '\n');
const halfBlock = blockOf(lines[cut - 1]!);
const lastBlock = blockOf(lines.at(-1)!);

const dataDir = (name: string) => emptyDataDir(inputs, name);

const expected = await stateDigest(join(fresh, 'state'));

t.test('behavior: verify on a state behind its log names the block, exits 3; ingest catches it up', async (t) => {
  const halfData = dataDir('half');
  t.equal(runTally(['ingest', '--data', halfData, '--capture', half]).code, 0);
  // The log holds the whole capture (a copy of the fresh ingest's), the state only its first half: what a kill
  // after the log write leaves.
  const data = join(inputs.dir, 'behind');
  cpSync(fresh, data, { recursive: true });
  rmSync(join(data, 'state'), { recursive: true });
  cpSync(join(halfData, 'state'), join(data, 'state'), { recursive: true });
  const verify = runTally(['verify', '--data', data]);
  t.equal(verify.code, 3, verify.stdout + verify.stderr);
  t.match(
    verify.stdout,
    new RegExp(
      `the state is behind its log: folded through block ${halfBlock}, the log holds \\d+ more blocks through block ${lastBlock}`,
    ),
  );
  t.match(verify.stdout, /tally ingest --data .* folds the rest/);
  const ingest = runTally(['ingest', '--data', data]);
  t.equal(ingest.code, 0, ingest.stderr);
  t.equal(await stateDigest(join(data, 'state')), expected, 'caught up: the state of a single ingest');
  t.equal(runTally(['verify', '--data', data]).code, 0);
});

t.test('behavior: serve folds again a state marked by another boot before answering', async (t) => {
  const data = join(inputs.dir, 'torn');
  cpSync(fresh, data, { recursive: true });
  // A machine that went down mid-fold: its boot's marker, and state pages that never reached the disk.
  writeFileSync(join(data, 'state', 'unflushed'), '00000000-0000-4000-8000-000000000000');
  const file = join(data, 'state', 'data.mdb');
  const bytes = readFileSync(file);
  bytes.fill(0, bytes.length >> 1);
  writeFileSync(file, bytes);
  const server = await startServer({ data, host: '127.0.0.1', port: 0 });
  try {
    const key = await createKey(data);
    const health = await fetch(`http://127.0.0.1:${server.port}/v1/health`, {
      headers: { authorization: `Bearer ${key}` },
    });
    t.equal(health.status, 200);
    t.match(await health.json(), { status: 'ok', block: lastBlock });
  } finally {
    await server.closeAll();
  }
  t.equal(await stateDigest(join(data, 'state')), expected, 'the state folded again from the log');
  t.notOk(existsSync(join(data, 'state', 'unflushed')), 'marker cleared');
});

t.test('behavior: verify removes the scratch of a killed verify and its own on a signal', async (t) => {
  const stale = join(fresh, 'verify-scratch-999999999');
  mkdirSync(stale);
  t.equal(runTally(['verify', '--data', fresh]).code, 0);
  t.notOk(existsSync(stale), "a dead verify's scratch is gone");
  const child = spawn(process.execPath, [BIN, 'verify', '--data', fresh], { stdio: 'ignore' });
  const scratch = join(fresh, `verify-scratch-${child.pid}`);
  while (!existsSync(scratch)) await new Promise((resolve) => setTimeout(resolve, 5));
  child.kill('SIGTERM');
  const code = await new Promise((resolve) => child.on('close', resolve));
  t.equal(code, 143);
  t.same(
    readdirSync(fresh).filter((name) => name.startsWith('verify-scratch-')),
    [],
    'no scratch left',
  );
});
