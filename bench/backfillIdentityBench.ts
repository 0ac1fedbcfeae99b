// `npm run bench:backfill -- [--fills N]`: a backfill and a live-mode fold of the same demo capture (N fills,
// default 1,000,000, as bench:fold makes it) hold the same state: every table (engine/state/stateDigest.ts) and
// every block record, for 1, 2 and 4 wallet workers and two batch sizes (the flush), and `tally verify` passes on
// them. Each fold is the real `tally ingest` in a process of its own; its wall time is printed beside it. Exits 1 on
// any difference. Last line: `backfill identity: N folds, all equal` (or the first that differs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_PRICE_FEEDS } from '../cli/demo/demoFeeds.js';
import { generateDemoVenue } from '../cli/demo/generateDemoVenue.js';
import { openStateStore } from '../engine/state/openStateStore.js';
import { createStateReader } from '../engine/state/stateReader.js';
import { stateDigest } from '../engine/state/stateDigest.js';
import { createHash } from 'node:crypto';

const { values } = parseArgs({ options: { fills: { type: 'string' }, dir: { type: 'string' } } });
const fills = Number(values.fills ?? 1_000_000);
const root = values.dir ?? join('bench', '.cache');
const inputs = join(root, `demo-${fills}-v2`);
const capture = join(inputs, 'capture.ndjson');
const BIN = fileURLToPath(new URL('../cli/tally.mjs', import.meta.url));

if (!existsSync(join(inputs, 'demo.json'))) {
  mkdirSync(inputs, { recursive: true });
  console.log(`generating the demo capture with ${fills.toLocaleString('en-US')} fills into ${inputs}`);
  await generateDemoVenue({ outDir: inputs, fills, seed: 1, protocolV2: true });
}

/** A digest of the state's block records, in order. */
async function blockRecordsDigest(stateDir: string): Promise<string> {
  const store = openStateStore({ dir: stateDir, readOnly: true });
  const hash = createHash('sha256');
  for (const record of createStateReader(store).blocks())
    hash.update(`${record.block}:${record.checksum}:${record.hash}`);
  await store.close();
  return hash.digest('hex');
}

function tally(args: string[]): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`tally ${args.join(' ')} failed: ${run.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function fold(name: string, args: string[]): Promise<{ state: string; blocks: string; seconds: number }> {
  const data = join(root, `backfill-identity-${name}`);
  rmSync(data, { recursive: true, force: true });
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, 'config.json'), JSON.stringify({ addresses: { priceFeeds: DEMO_PRICE_FEEDS } }));
  const seconds = tally(['ingest', '--data', data, '--capture', capture, ...args]);
  const stateDir = join(data, 'state');
  const result = { state: await stateDigest(stateDir), blocks: await blockRecordsDigest(stateDir), seconds };
  if (name === 'backfill-2w') {
    const verified = tally(['verify', '--data', data, '--workers', '2']);
    console.log(`${name}: tally verify passed in ${verified.toFixed(1)} s`);
  }
  rmSync(data, { recursive: true, force: true });
  return result;
}

const reference = await fold('live', ['--live', '--workers', '1']);
console.log(`live, 1 worker: ${reference.seconds.toFixed(1)} s, state ${reference.state.slice(0, 16)}`);
const folds: Array<[string, string[]]> = [
  ['backfill-1w', ['--workers', '1']],
  ['backfill-2w', ['--workers', '2']],
  ['backfill-4w', ['--workers', '4']],
  ['backfill-2w-50000', ['--workers', '2', '--batch-logs', '50000']],
  ['backfill-4w-3000', ['--workers', '4', '--batch-logs', '3000']],
];
let differing: string | null = null;
for (const [name, args] of folds) {
  const result = await fold(name, args);
  const same = result.state === reference.state && result.blocks === reference.blocks;
  console.log(
    `${name}: ${result.seconds.toFixed(1)} s, state ${result.state.slice(0, 16)}, ${same ? 'equal' : 'DIFFERENT'}`,
  );
  if (!same) differing ??= name;
}
console.log(
  differing === null
    ? `backfill identity: ${folds.length + 1} folds, all equal`
    : `backfill identity: ${differing} differs from the live fold`,
);
process.exit(differing === null ? 0 : 1);
