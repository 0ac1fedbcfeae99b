// The command-line contract the outside checks drive: ingest, keys create, verify; bad captures refused with
// file and line, leaving the state exactly as it was.
import t, { type Test } from 'tap';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRealCapture } from '../fixtures/realCapture.js';
import { runTally } from '../fixtures/runTally.js';
import { stateDigest } from '../../engine/state/stateDigest.js';
import { openStateStore } from '../../engine/state/openStateStore.js';

const dir = mkdtempSync(join(tmpdir(), 'tally-cli-'));
const capture = join(dir, 'real.ndjson');
writeRealCapture(capture);
const lines = readFileSync(capture, 'utf8').trimEnd().split('\n');
const data = join(dir, 'data');

t.test('default: ingest a real capture, create a key, verify', async (t) => {
  const ingest = runTally(['ingest', '--data', data, '--capture', capture]);
  t.equal(ingest.code, 0, ingest.stderr);
  const key = runTally(['keys', 'create', '--data', data]);
  t.equal(key.code, 0);
  t.match(key.stdout.trim().split('\n').at(-1), /^svc_[0-9a-f]{48}$/, 'the key is the last line');
  const verify = runTally(['verify', '--data', data, '--workers', '3']);
  t.equal(verify.code, 0, verify.stdout + verify.stderr);
  // 9 blocks with venue events: the block of the Rust fixtures' conversion by the neg-risk collateral adapter
  // (0xada20056...) holds only plumbing since the CLOB V2 adapters are venue contracts.
  t.match(verify.stdout, /verify: ok, 9 blocks/);
});

t.test('behavior: re-ingesting the same capture adds nothing', async (t) => {
  const before = await stateDigest(join(data, 'state'));
  const again = runTally(['ingest', '--data', data, '--capture', capture]);
  t.equal(again.code, 0, again.stderr);
  t.match(again.stderr, /already in log 75/);
  t.equal(await stateDigest(join(data, 'state')), before);
});

t.test('behavior: a state folded with another layout is refused by verify and folded again by ingest', async (t) => {
  const before = await stateDigest(join(data, 'state'));
  const store = openStateStore({ dir: join(data, 'state') });
  await store.dbs.meta.remove('layout'); // what a state folded before layouts were recorded looks like
  await store.close();
  const stale = runTally(['verify', '--data', data]);
  t.equal(stale.code, 1);
  t.match(stale.stdout, /folded with another state layout/);
  const again = runTally(['ingest', '--data', data, '--capture', capture]);
  t.equal(again.code, 0, again.stderr);
  t.match(again.stderr, /folded again from the log/);
  t.equal(await stateDigest(join(data, 'state')), before, 'the same state as before');
  t.equal(runTally(['verify', '--data', data]).code, 0);
});

// The data directory each bad capture is given: the capture's first 40 lines ingested, once, copied per case. Its
// log and state are verified to agree once; each case then checks both are byte for byte as they were, so they
// still agree (without a verify's process and refold per case).
let halfIngested: string | undefined;

/** The log's files, names and bytes. */
function logDigest(data: string): string {
  const hash = createHash('sha256');
  const log = join(data, 'log');
  for (const file of readdirSync(log).sort()) hash.update(`${file}\0`).update(readFileSync(join(log, file)));
  return hash.digest('hex');
}

async function refused(t: Test, name: string, text: string, line: number, message: RegExp) {
  if (halfIngested === undefined) {
    halfIngested = join(dir, 'half-ingested');
    const half = join(dir, 'half.ndjson');
    writeFileSync(half, lines.slice(0, 40).join('\n') + '\n');
    t.equal(runTally(['ingest', '--data', halfIngested, '--capture', half]).code, 0);
    t.equal(runTally(['verify', '--data', halfIngested]).code, 0, 'the half-ingested log and state agree');
  }
  const target = join(dir, `bad-${name}`);
  cpSync(halfIngested, target, { recursive: true });
  const before = await stateDigest(join(target, 'state'));
  const logBefore = logDigest(target);
  const bad = join(dir, `${name}.ndjson`);
  writeFileSync(bad, text);
  const result = runTally(['ingest', '--data', target, '--capture', bad]);
  t.equal(result.code, 1, `${name}: exit code 1`);
  t.match(
    result.stderr,
    new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:${line}: `),
    `${name}: names the file and line`,
  );
  t.match(result.stderr, message);
  t.equal(await stateDigest(join(target, 'state')), before, `${name}: state exactly as before`);
  t.equal(logDigest(target), logBefore, `${name}: log exactly as before, so log and state still agree`);
}

t.test('error: a malformed line', async (t) => {
  const text = [...lines.slice(0, 50), '{"address": "0x12", "topics": [', ...lines.slice(50)].join('\n') + '\n';
  await refused(t, 'malformed', text, 51, /malformed log line: not valid JSON/);
});

t.test('error: an out-of-order line', async (t) => {
  const text = [...lines.slice(0, 60), lines[45]!, ...lines.slice(60)].join('\n') + '\n';
  await refused(t, 'order', text, 61, /out of order/);
});

t.test('error: a truncated last line', async (t) => {
  const last = lines.at(-1)!;
  const text = lines.slice(0, -1).join('\n') + '\n' + last.slice(0, last.length - 30);
  await refused(t, 'torn', text, lines.length, /cut short/);
});

t.test('error: a field of the wrong type names the field', async (t) => {
  const broken = lines[55]!.replace(/"logIndex":"0x[0-9a-f]+"/, '"logIndex":"twelve"');
  const text = [...lines.slice(0, 55), broken, ...lines.slice(56)].join('\n') + '\n';
  await refused(t, 'field', text, 56, /logIndex must be/);
});
