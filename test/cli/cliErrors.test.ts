// The command line's own errors: help exits 0, usage errors are one line and exit 2, refusals one line and exit
// 1, never a stack; reading commands create nothing; keys revoke takes the prefix keys list shows.
import t from 'tap';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAGE_RETRY } from '../../cli/fetchMarketPages.js';
import { MAX_LINE_BYTES } from '../../replay/source/readLines.js';
import { createKey } from '../fixtures/apiKey.js';
import { closedPort } from '../fixtures/closedPort.js';
import { expectOneLine } from '../fixtures/expectOneLine.js';
import { runTally, runTallyAsync } from '../fixtures/runTally.js';

const dir = mkdtempSync(join(tmpdir(), 'tally-cli-errors-'));

// Started now, told later: its retries wait ~7 s, while the other tests run.
const port = await closedPort();
const fetchData = join(dir, 'fetch');
mkdirSync(fetchData);
const fetched = runTallyAsync(['metadata', '--data', fetchData, '--url', `http://127.0.0.1:${port}/markets`]);

t.test('default: help', async (t) => {
  for (const args of [['--help'], ['-h'], ['help']]) {
    const help = runTally(args);
    t.equal(help.code, 0, args.join(' '));
    t.match(help.stdout, /^usage: tally <command>/);
  }
  const ingest = runTally(['ingest', '--help']);
  t.equal(ingest.code, 0);
  t.match(ingest.stdout, /^usage: tally ingest /, "a command's own help");
  t.notMatch(ingest.stdout, /replay {4}a new data directory/, 'not the global list');
  t.match(runTally(['help', 'verify']).stdout, /^usage: tally verify /);
});

t.test('error: usage errors are one line and exit 2', async (t) => {
  const none = runTally([]);
  t.equal(none.code, 2, 'no command');
  t.match(none.stderr, /^usage: tally <command>/);
  for (const [args, pattern] of [
    [['frobnicate'], /^tally: unknown command frobnicate/],
    [['ingest', '--bogus'], /^tally: ingest: unknown flag --bogus \(tally ingest --help lists them\)$/],
    [['ingest', '--data'], /^tally: ingest: --data needs a value: --data DIR$/],
    [['demo', '--fills', 'many'], /^tally: --fills must be an integer/],
    [['serve', '--port', '65536'], /^tally: --port must be an integer from 0 to 65535, got 65536$/],
    [['keys'], /^tally: keys needs an action/],
  ] as Array<[string[], RegExp]>) {
    const result = runTally(args);
    t.equal(result.code, 2, args.join(' '));
    expectOneLine(t, result.stderr, pattern);
  }
});

t.test('error: a URL that cannot be fetched ends in one line, after its retries', async (t) => {
  const result = await fetched;
  t.equal(result.code, 1);
  const lines = result.stderr.trimEnd().split('\n');
  t.equal(lines.length, PAGE_RETRY.retries! + 1, result.stderr);
  t.ok(
    lines
      .slice(0, -1)
      .every((line) => / failed \(connect ECONNREFUSED .*\): attempt \d of \d, retrying in /.test(line)),
    'each retry told',
  );
  t.match(
    lines.at(-1),
    new RegExp(
      `^tally: cannot fetch http://127\\.0\\.0\\.1:${port}/markets\\?limit=\\d+: connect ECONNREFUSED .*attempts\\)$`,
    ),
  );
  t.notMatch(result.stderr, /^\s+at /m, 'no stack');
  t.same(readdirSync(fetchData), [], 'nothing written');
});

t.test('behavior: keys list and revoke never create a directory; revoke takes a listed prefix', async (t) => {
  const missing = join(dir, 'typo');
  const list = runTally(['keys', 'list', '--data', missing]);
  t.equal(list.code, 1);
  expectOneLine(t, list.stderr, /holds no keys/);
  t.equal(runTally(['keys', 'revoke', 'svc_abc', '--data', missing]).code, 1);
  t.notOk(existsSync(missing), 'nothing created');

  const data = join(dir, 'keys');
  mkdirSync(data);
  // Made in this process: keys create is not what is tested here (test/cli/ingestCommand.test.ts spawns it).
  const key = await createKey(data);
  await createKey(data);
  const listed = runTally(['keys', 'list', '--data', data]).stdout.trim().split('\n');
  t.equal(listed.length, 2);
  const shown = listed.find((line) => key.startsWith(line.split('...')[0]!))!.split(' ')[0]!;
  const revoke = runTally(['keys', 'revoke', shown, '--data', data]);
  t.equal(revoke.code, 0, revoke.stderr);
  t.equal(revoke.stdout.trim(), `revoked ${shown}`);
  t.match(
    runTally(['keys', 'list', '--data', data]).stdout,
    new RegExp(`${shown.replace(/\./g, '\\.')} created \\S+ revoked `),
  );
  const ambiguous = runTally(['keys', 'revoke', 'svc_', '--data', data]);
  t.equal(ambiguous.code, 1);
  expectOneLine(t, ambiguous.stderr, /^tally: keys revoke: 2 keys start with svc_; give more of the key$/);
});

t.test('error: captures that fold nothing, or hold a line too long, are told at ingest', async (t) => {
  const empty = join(dir, 'empty.ndjson');
  writeFileSync(empty, '');
  const data = join(dir, 'empty-data');
  const ingest = runTally(['ingest', '--data', data, '--capture', empty]);
  t.equal(ingest.code, 0);
  t.match(ingest.stderr, new RegExp(`${empty.replace(/\./g, '\\.')} holds no log lines: nothing was folded`));
  const long = join(dir, 'long.ndjson');
  writeFileSync(long, `{"address":"0x${'0'.repeat(40)}","data":"0x${'00'.repeat(MAX_LINE_BYTES)}"}\n`);
  const refused = runTally(['ingest', '--data', join(dir, 'long-data'), '--capture', long]);
  t.equal(refused.code, 1);
  expectOneLine(
    t,
    refused.stderr,
    new RegExp(`^tally: ${long.replace(/\./g, '\\.')}:1: the line is longer than ${MAX_LINE_BYTES} bytes`),
  );
});
