// A node that cannot be reached is told within seconds, through the real command (issue 22, item 5): a URL that
// is not http(s) is refused before any request (exit 2, a malformed command line), a port fetch never connects
// to fails at once, and a first connection that is refused fails after the few quick attempts of
// FIRST_CONNECTION_RETRY, each printed with its cause, then one `tally:` line and exit 1.
import t from 'tap';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIRST_CONNECTION_RETRY } from '../../replay/source/retryRpc.js';
import { closedPort } from '../fixtures/closedPort.js';
import { expectOneLine } from '../fixtures/expectOneLine.js';
import { runTally } from '../fixtures/runTally.js';

const dir = mkdtempSync(join(tmpdir(), 'tally-rpc-connect-'));
/**
 * A hang guard, not a timing test: the attempts' backoff is about 2 s in all, but `run` serves before its first
 * attempt, and its two serving threads each load the API's modules: 4 s of its 6 alone here, past 15 under a full
 * suite's load (the run was cut at its first retry, twice, on 2 cores).
 */
const DEADLINE_MS = 60_000;

t.test('error: a URL that is not http(s) is refused before any request, exit 2', async (t) => {
  for (const [args, env, pattern] of [
    [['ingest', '--rpc', 'notaurl'], {}, /^tally: --rpc is not a URL: give an http:\/\/ or https:\/\/ URL$/],
    [['ingest', '--rpc', 'ftp://x'], {}, /^tally: --rpc must be an http:\/\/ or https:\/\/ URL, not ftp:\/\/$/],
    [['run', '--rpc', 'notaurl', '--port', '0'], {}, /^tally: --rpc is not a URL/],
    [
      ['run', '--port', '0'],
      { TALLY_RPC_URL: 'ftp://x' },
      /^tally: TALLY_RPC_URL must be an http:\/\/ or https:\/\/ URL, not ftp:\/\/$/,
    ],
  ] as Array<[string[], Record<string, string>, RegExp]>) {
    const data = join(dir, 'malformed');
    const result = runTally([...args, '--data', data], env, DEADLINE_MS);
    t.equal(result.code, 2, args.join(' '));
    expectOneLine(t, result.stderr, pattern);
    t.notOk(existsSync(data), 'nothing created');
  }
});

t.test('error: a port fetch never connects to fails at once, without retries', async (t) => {
  const result = runTally(['ingest', '--data', join(dir, 'bad-port'), '--rpc', 'http://127.0.0.1:1'], {}, DEADLINE_MS);
  t.equal(result.code, 1);
  expectOneLine(
    t,
    result.stderr,
    /^tally: eth_chainId: .*bad port: fetch never connects to this port \(the Fetch standard blocks it\)/,
  );
});

t.test('error: a refused first connection fails after a few quick attempts, each told with its cause', async (t) => {
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}`;
  const attempts = FIRST_CONNECTION_RETRY.retries! + 1;
  for (const [command, args] of [
    ['ingest', []],
    ['run', ['--port', '0']],
  ] as const) {
    const result = runTally([command, '--data', join(dir, command), '--rpc', url, ...args], {}, DEADLINE_MS);
    t.equal(result.code, 1, `${command}: ${result.stderr}`);
    const lines = result.stderr.trimEnd().split('\n');
    const retries = lines.filter((line) => line.startsWith(`${command}: eth_chainId failed`));
    t.equal(retries.length, attempts - 1, `${command}: every retry is told`);
    retries.forEach((line, i) => {
      t.match(
        line,
        new RegExp(
          `ECONNREFUSED 127\\.0\\.0\\.1:${port}\\): attempt ${i + 1} of ${attempts}, retrying in \\d+\\.\\d s$`,
        ),
      );
    });
    t.match(
      lines.at(-1),
      new RegExp(
        `^tally: http://127\\.0\\.0\\.1:${port} did not answer eth_chainId in ${attempts} attempts \\(.*ECONNREFUSED.*\\): check the URL and that the node is running$`,
      ),
      'the last line says what failed and what to check',
    );
    t.notMatch(result.stderr, /^\s+at |please report/m, 'no stack');
  }
});
