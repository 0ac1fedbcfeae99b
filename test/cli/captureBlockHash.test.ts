// Issue 22, item 6: a capture that repeats a block the log holds must carry the log's hash for it, however old
// the block (not only the last 256): another hash stops the ingest naming the block, with nothing appended,
// while the same hash keeps being skipped as already in the log.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openEventLog } from '../../engine/log/eventLog.js';
import { createDemoInputs, emptyDataDir } from '../fixtures/demoVenue.js';
import { runTally } from '../fixtures/runTally.js';
import { stateDigest } from '../../engine/state/stateDigest.js';

const inputs = await createDemoInputs(100, 7);
const lines = readFileSync(inputs.capture, 'utf8').trimEnd().split('\n');
const parsed = lines.map((line) => JSON.parse(line) as { blockNumber: string; blockHash: string });
const blockOf = (i: number) => Number(parsed[i]!.blockNumber);
// The first half of the capture, to a block's end: what the log holds before each refused capture.
const cut = lines.findIndex((_, i) => i >= lines.length >> 1 && blockOf(i) !== blockOf(i - 1));
const half = join(inputs.dir, 'half.ndjson');
writeFileSync(half, lines.slice(0, cut).join('\n') + '\n');
const data = emptyDataDir(inputs, 'data');
t.equal(runTally(['ingest', '--data', data, '--capture', half]).code, 0);
const logHead = () => {
  const log = openEventLog({ dir: join(data, 'log'), readOnly: true });
  const head = log.head();
  log.close();
  return head;
};
const before = { head: logHead(), state: await stateDigest(join(data, 'state')) };
const blocks = new Set(parsed.slice(0, cut).map((log) => log.blockNumber)).size;
t.ok(blocks > 2 * 256, `the log holds ${blocks} blocks, far more than the 256 newest`);

/** The whole capture with every line of `block` carrying another block hash. */
function withOtherHash(name: string, block: number): string {
  const file = join(inputs.dir, `${name}.ndjson`);
  const other = '0x' + 'ab'.repeat(32);
  writeFileSync(
    file,
    parsed
      .map((log, i) => (blockOf(i) === block ? JSON.stringify({ ...log, blockHash: other }) : lines[i]))
      .join('\n') + '\n',
  );
  return file;
}

for (const [name, at] of [
  ['first', 0],
  ['middle', cut >> 1],
  ['last', cut - 1],
] as const) {
  t.test(`error: the ${name} block the log holds, with another hash, stops the ingest naming it`, async (t) => {
    const block = blockOf(at);
    const line = parsed.findIndex((_, i) => blockOf(i) === block) + 1;
    const capture = withOtherHash(name, block);
    const result = runTally(['ingest', '--data', data, '--capture', capture]);
    t.equal(result.code, 1, result.stderr);
    const stderr = result.stderr.trim().split('\n');
    t.equal(stderr.length, 1, 'one line');
    t.match(
      stderr[0],
      new RegExp(
        `^tally: ${capture}:${line}: block ${block} has hash 0x(ab){32} but the log holds ${parsed[at]!.blockHash}`,
      ),
    );
    t.match(stderr[0], new RegExp(`tally rewind --to-block ${block - 1}`), 'names the fix');
    t.same(logHead(), before.head, 'nothing appended');
    t.equal(await stateDigest(join(data, 'state')), before.state, 'nothing folded');
  });
}

t.test('behavior: the same hashes are already in the log, and the rest is ingested', async (t) => {
  const result = runTally(['ingest', '--data', data, '--capture', inputs.capture]);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stderr, new RegExp(`already in log ${cut}\\b`));
  t.equal(logHead().block, blockOf(lines.length - 1));
});
