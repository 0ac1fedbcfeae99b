// A capture cut inside a block, then a longer one: every log of that block ends up folded (the block is rewound
// and ingested again), never a silent gap. And `verify --capture` finds a log that lacks a capture's logs.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KIND } from '../../engine/chain/chainEvent.js';
import { EVENT_TOPICS } from '../../replay/decode/eventAbis.js';
import { createDemoInputs, emptyDataDir } from '../fixtures/demoVenue.js';
import { runTally } from '../fixtures/runTally.js';
import { stateDigest } from '../../engine/state/stateDigest.js';

const inputs = await createDemoInputs(200, 11);
const lines = readFileSync(inputs.capture, 'utf8').trimEnd().split('\n');
const parsed = lines.map((line) => JSON.parse(line) as { blockNumber: string; topics: string[] });
const fillTopics = new Set<string>([EVENT_TOPICS[KIND.orderFilledV1], EVENT_TOPICS[KIND.orderFilledV2]]);

// The first cut (after line `cut`) inside a block whose rest holds a fill, well into the capture.
const cut =
  parsed.findIndex(
    (log, i) =>
      i > lines.length / 3 &&
      parsed[i + 1]?.blockNumber === log.blockNumber &&
      parsed
        .slice(i + 1)
        .filter((next) => next.blockNumber === log.blockNumber)
        .some((next) => fillTopics.has(next.topics[0]!)),
  ) + 1;
const cutBlock = Number(parsed[cut - 1]!.blockNumber);
// The longer capture: some 200 lines more, to a block's end.
const end = parsed.findIndex((log, i) => i > cut + 200 && log.blockNumber !== parsed[i - 1]!.blockNumber);

const dataDir = (name: string) => emptyDataDir(inputs, name);

function prefix(name: string, count: number, skip: (i: number) => boolean = () => false): string {
  const file = join(inputs.dir, `${name}.ndjson`);
  writeFileSync(
    file,
    lines
      .slice(0, count)
      .filter((_, i) => !skip(i))
      .join('\n') + '\n',
  );
  return file;
}

const fresh = dataDir('fresh');
t.equal(runTally(['ingest', '--data', fresh, '--capture', prefix('long', end)]).code, 0);

t.test('behavior: a capture continuing a block already logged folds every log of it', async (t) => {
  t.ok(cut > 0 && end > cut, `cut after line ${cut} inside block ${cutBlock}`);
  const data = dataDir('pair');
  t.equal(runTally(['ingest', '--data', data, '--capture', prefix('short', cut)]).code, 0);
  const longer = runTally(['ingest', '--data', data, '--capture', join(inputs.dir, 'long.ndjson')]);
  t.equal(longer.code, 0, longer.stderr);
  t.match(longer.stderr, new RegExp(`block ${cutBlock}`), 'says which block it takes again');
  t.equal(
    await stateDigest(join(data, 'state')),
    await stateDigest(join(fresh, 'state')),
    'the state of a single ingest',
  );
  const verify = runTally(['verify', '--data', data, '--capture', join(inputs.dir, 'long.ndjson')]);
  t.equal(verify.code, 0, verify.stdout + verify.stderr);
  t.match(verify.stdout, /holds every venue log of/);
});

t.test('error: verify --capture names the block whose logs the log lacks, and the fix works', async (t) => {
  // What an ingest that dropped the rest of the block (the old behavior) left: the block's tail missing.
  const data = dataDir('damaged');
  const tail = (i: number) => i >= cut && Number(parsed[i]!.blockNumber) === cutBlock;
  t.equal(runTally(['ingest', '--data', data, '--capture', prefix('holed', end, tail)]).code, 0);
  t.equal(runTally(['verify', '--data', data]).code, 0, 'log and state agree with each other');
  const capture = join(inputs.dir, 'long.ndjson');
  const verify = runTally(['verify', '--data', data, '--capture', capture]);
  t.equal(verify.code, 1);
  t.match(verify.stdout, new RegExp(`the log lacks \\d+ venue logs? of block ${cutBlock}`));
  t.match(verify.stdout, new RegExp(`tally rewind --to-block ${cutBlock - 1}`));
  t.equal(runTally(['rewind', '--data', data, '--to-block', String(cutBlock - 1)]).code, 0);
  t.equal(runTally(['ingest', '--data', data, '--capture', capture]).code, 0);
  t.equal(
    await stateDigest(join(data, 'state')),
    await stateDigest(join(fresh, 'state')),
    'repaired: the state of a single ingest',
  );
});
