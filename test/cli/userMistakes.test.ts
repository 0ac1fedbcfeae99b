// User mistakes the command line once reported as bugs or answered with silence (issue 22, items 4 and 5): each is
// one `tally:` line naming the path and exit 1. A capture or metadata file that is not there or is a directory, a
// replay into a directory that is not empty, a metadata file with no market object, a data directory that does not
// exist given to a command that only reads or amends one, and `start` on a port in use (which left a key behind).
import t from 'tap';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metadataCommand } from '../../cli/commands/metadataCommand.js';
import { exitCodeOf } from '../../cli/exitCodeOf.js';
import { createIngestedDemo } from '../fixtures/demoData.js';
import { expectOneLine } from '../fixtures/expectOneLine.js';
import { runTally } from '../fixtures/runTally.js';

const dir = mkdtempSync(join(tmpdir(), 'tally-mistakes-'));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** What a command run in this process refused with (null if it did not), and the line cli/main.ts prints of it. */
const refusalOf = (run: Promise<unknown>) => run.then(() => null).catch((error: unknown) => error);
const lineOf = (refusal: unknown) => `tally: ${(refusal as Error | null)?.message}\n`;
const market = { conditionId: '0x' + 'ab'.repeat(32), question: 'Will it?', slug: 'will-it', outcomes: '["Yes","No"]' };

t.test(
  'error: an input file that is not there or is a directory is one line naming it, and creates nothing',
  async (t) => {
    const missing = join(dir, 'missing.ndjson');
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    for (const [args, pattern] of [
      [
        ['ingest', '--capture', missing],
        new RegExp(`^tally: --capture ${escape(missing)}: no such file or directory$`),
      ],
      [
        ['ingest', '--capture', folder],
        new RegExp(`^tally: --capture ${escape(folder)}: is a directory; give a file$`),
      ],
      [
        ['ingest', '--metadata', missing],
        new RegExp(`^tally: --metadata ${escape(missing)}: no such file or directory$`),
      ],
      [
        ['ingest', '--metadata', folder],
        new RegExp(`^tally: --metadata ${escape(folder)}: is a directory; give a file$`),
      ],
    ] as Array<[string[], RegExp]>) {
      const data = join(dir, 'ingest-data');
      const result = runTally([...args, '--data', data]);
      t.equal(result.code, 1, args.join(' '));
      expectOneLine(t, result.stderr, pattern);
      t.notOk(existsSync(data), 'no data directory made');
    }
    const data = join(dir, 'metadata-data');
    mkdirSync(data);
    for (const [file, pattern] of [
      [missing, /no such file or directory$/],
      [folder, /is a directory; give a file$/],
    ] as const) {
      // In this process: the ingest cases above run the same check (cli/checkInputFile.ts) in tally processes.
      const refusal = await refusalOf(metadataCommand({ data, file }));
      t.equal(exitCodeOf(refusal), 1);
      expectOneLine(t, lineOf(refusal), new RegExp(`^tally: --file ${escape(file)}: ${pattern.source}`));
    }
    t.same(readdirSync(data), [], 'nothing written');
  },
);

t.test('error: replay into a directory that is not empty, or a file, is one line naming it', async (t) => {
  const full = join(dir, 'full');
  mkdirSync(full);
  writeFileSync(join(full, 'keep.txt'), 'mine');
  const replay = runTally(['replay', '--data', join(dir, 'any'), '--to-block', '5', '--out', full]);
  t.equal(replay.code, 1);
  expectOneLine(
    t,
    replay.stderr,
    new RegExp(`^tally: --out ${escape(full)} is not empty; give a new or empty directory$`),
  );
  t.same(readdirSync(full), ['keep.txt'], 'untouched');
  const file = join(full, 'keep.txt');
  const onFile = runTally(['replay', '--data', join(dir, 'any'), '--to-block', '5', '--out', file]);
  t.equal(onFile.code, 1);
  expectOneLine(
    t,
    onFile.stderr,
    new RegExp(`^tally: --out ${escape(file)} is a file; give a new or empty directory$`),
  );
});

t.test('error: a metadata file holding no market object is refused, naming what it holds', async (t) => {
  const data = join(dir, 'shapes');
  mkdirSync(data);
  const wanted = 'not market objects \\(Gamma shape, each with a conditionId of 0x and 64 hex\\)';
  for (const [name, text, found] of [
    ['object', '{"a":1}', `holds an object with keys a, ${wanted}$`],
    ['null', 'null', `holds null, ${wanted}$`],
    [
      'clob-page',
      JSON.stringify({ data: [{ x: 1 }], next_cursor: 'MA==' }),
      `holds an object with keys data, next_cursor, ${wanted}; a page of an API answer\\? give its data array$`,
    ],
    ['empty-array', '[]', `holds an empty array, ${wanted}$`],
    ['array', '[{"x":1},2]', `holds an array of 2 values \\(the first is an object with keys x\\), ${wanted}$`],
    ['ndjson', '{"x":1}\n{"y":2}\n', `holds 2 JSON lines \\(the first is an object with keys x\\), ${wanted}$`],
    ['empty', '', `is empty, ${wanted}$`],
  ] as Array<[string, string, string]>) {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, text);
    // Each shape is refused in this process (the command's error, and the exit code and line cli/main.ts makes
    // of it); one, the first, also by a tally process, which takes the same path.
    const refusal = await refusalOf(metadataCommand({ data, file }));
    t.equal(exitCodeOf(refusal), 1, `${name}: exit code 1`);
    expectOneLine(t, lineOf(refusal), new RegExp(`^tally: ${escape(file)}: ${found}`));
    if (name !== 'object') continue;
    const result = runTally(['metadata', '--data', data, '--file', file]);
    t.equal(result.code, 1, name);
    expectOneLine(t, result.stderr, new RegExp(`^tally: ${escape(file)}: ${found}`));
  }
  t.same(readdirSync(data), [], 'nothing written');

  // One market object, alone or in an array, is loaded; objects without a condition id beside it are skipped. The
  // second load finds it stored as it is.
  for (const [name, text, added] of [
    ['one', JSON.stringify(market), 1],
    ['mixed', JSON.stringify([{ x: 1 }, market]), 0],
  ] as const) {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, text);
    const result = runTally(['metadata', '--data', data, '--file', file]);
    t.equal(result.code, 0, result.stderr);
    t.match(result.stderr, new RegExp(`^metadata: 1 markets from ${escape(file)} \\(${added} new, 0 changed\\)$`, 'm'));
  }
});

t.test(
  'behavior: only demo, ingest, start, run and replay --out make a data directory; the others refuse a missing one',
  async (t) => {
    const metadata = join(dir, 'market.json');
    writeFileSync(metadata, JSON.stringify([market]));
    const profiles = join(dir, 'profiles.json');
    writeFileSync(profiles, '[]');
    const out = join(dir, 'replayed');
    for (const args of [
      ['metadata', '--file', metadata],
      ['profiles', '--file', profiles],
      ['keys', 'create'],
      ['keys', 'list'],
      ['serve', '--port', '0'],
      ['verify'],
      ['rewind', '--to-block', '1'],
      ['replay', '--to-block', '1', '--out', out],
    ]) {
      const data = join(dir, 'typo');
      const result = runTally([...args, '--data', data]);
      t.equal(result.code, 1, args.join(' '));
      expectOneLine(t, result.stderr, new RegExp(`^tally: .*${escape(data)}`));
      t.notOk(existsSync(data), `${args[0]}: nothing created`);
    }
    t.notOk(existsSync(out), 'replay made no --out for a source that is not there');
  },
);

t.test('error: start on a port in use creates no key', async (t) => {
  // A venue with no key (a demo ingested once for several test files), so start serves it rather than make one.
  const { data } = await createIngestedDemo(300, 9);
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => busy.close());
  const { port } = busy.address() as { port: number };
  const start = runTally(['start', '--data', data, '--host', '127.0.0.1', '--port', String(port)]);
  t.equal(start.code, 1);
  t.match(start.stderr, new RegExp(`^tally: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use`, 'm'));
  t.notMatch(start.stdout, /svc_/, 'no key printed');
  const keys = runTally(['keys', 'list', '--data', data]);
  t.equal(keys.code, 0);
  t.equal(keys.stdout, '', 'no key stored');
  t.match(keys.stderr, /holds no keys yet/);
});

t.test('error: publish and replica that fail before logging leave no directory they made', async (t) => {
  // A port nothing listens on: bound, then let go.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const nats = `nats://127.0.0.1:${port}`;
  for (const [args, pattern] of [
    [['publish', '--nats', nats], /^tally: publish: no NATS server answers at /],
    [['replica', '--nats', nats, '--port', '0'], /^tally: replica: no NATS server answers at /],
    [['publish', '--nats', nats, '--stream', 'bad name!'], /^tally: stream name "bad name!": use 1 to 64 letters/],
    [['replica', '--nats', nats, '--stream', 'a.b'], /^tally: stream name "a\.b": use 1 to 64 letters/],
  ] as const) {
    const data = join(dir, `made-${args[0]}`);
    const result = runTally([...args, '--data', data]);
    t.equal(result.code, 1, args.join(' '));
    expectOneLine(t, result.stderr, pattern);
    t.notOk(existsSync(data), `${args.join(' ')}: no directory left`);
  }
});
