// Issue 22, item 2: `tally rewind` while `tally serve` runs on the same data directory. The rewind moves a new
// state in beside the one the server maps; the server answers from the rewound state from its next request on
// (health, answers it had cached, answers it never made), as a server started afresh would, and follows the
// commits of a later ingest into it. A rewind while another process folds is refused, naming that process.
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { apiClient } from '../fixtures/apiClient.js';
import { createDemoInputs, emptyDataDir } from '../fixtures/demoVenue.js';
import { runTally, runTallyAsync } from '../fixtures/runTally.js';
import { createKey } from '../fixtures/apiKey.js';

const BIN = fileURLToPath(new URL('../../cli/tally.mjs', import.meta.url));
const inputs = await createDemoInputs(100, 7);
const lines = readFileSync(inputs.capture, 'utf8').trimEnd().split('\n');
const blockOf = (i: number) => Number(JSON.parse(lines[i]!).blockNumber);
const lastBlock = blockOf(lines.length - 1);
// Rewound to a block's end some 60% into the capture.
const cut = lines.findIndex((_, i) => i >= lines.length * 0.6 && blockOf(i) !== blockOf(i - 1));
const rewindTo = blockOf(cut - 1);

const data = emptyDataDir(inputs, 'data');
t.equal(runTally(['ingest', '--data', data, '--capture', inputs.capture]).code, 0);
const key = await createKey(data);

// A fill after the rewound block: its market's trades and its wallet's change with the rewind.
const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
const reader = createStateReader(store);
const later = [...reader.fillsFrom(rewindTo + 1)][0]!;
const market = reader.idText(later.fill.marketSpace, later.fill.marketId);
const wallet = reader.idText(ID_SPACE.address, later.fill.walletId);
await store.close();
const urls = [
  `/v1/health`,
  `/v1/markets/${market}/trades?limit=20`,
  `/v1/wallets/${wallet}/positions`,
  `/v1/wallets/${wallet}/trades`,
];

/** `tally serve --port 0` in a child process, once it prints its port. */
async function serve(t: {
  teardown(fn: () => void): void;
}): Promise<{ child: ChildProcess; get: ReturnType<typeof apiClient> }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--data', data, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.teardown(() => child.kill());
  let stdout = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /on http:\/\/127\.0\.0\.1:(\d+)\/v1/.exec(stdout);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`tally serve exited with ${code}`)));
  });
  return { child, get: apiClient(port, key) };
}

t.test('behavior: a running server serves the rewound state from its next request on', async (t) => {
  const { get } = await serve(t);
  const before = await get('/v1/health');
  t.equal(before.body.block, lastBlock);
  const cached = await get(urls[1]!);
  t.ok(
    cached.body.trades.some((trade: { block: number }) => trade.block > rewindTo),
    'the market traded after the rewound block',
  );

  const rewind = await runTallyAsync(['rewind', '--data', data, '--to-block', String(rewindTo)]);
  t.equal(rewind.code, 0, rewind.stderr);
  t.match(rewind.stderr, new RegExp(`rewind: state as of block ${rewindTo}`));
  t.notOk(
    readdirSync(data).some((name) => name.startsWith('rewind-scratch-')),
    'no scratch left',
  );

  const answers = await Promise.all(urls.map((url) => get(url)));
  t.equal(answers[0]!.body.block, rewindTo, 'health: the rewound block');
  t.ok(
    answers[1]!.body.trades.every((trade: { block: number }) => trade.block <= rewindTo),
    'a cached answer is made again',
  );
  // What a server started on the rewound state answers, byte for byte.
  const fresh = await serve(t);
  for (const [i, url] of urls.entries()) {
    const expected = await fresh.get(url);
    t.equal(answers[i]!.status, 200, url);
    t.same(answers[i]!.body, expected.body, `${url}: as a fresh server answers`);
  }
  fresh.child.kill();

  // The server follows the new state's commits as it did the old one's.
  const ingest = await runTallyAsync(['ingest', '--data', data, '--capture', inputs.capture]);
  t.equal(ingest.code, 0, ingest.stderr);
  t.equal((await get('/v1/health')).body.block, lastBlock, 'an ingest into the rewound state is served');
});

t.test('error: a rewind while another process folds is refused, naming it', async (t) => {
  const rewound = await runTallyAsync(['rewind', '--data', data, '--to-block', String(rewindTo)]);
  t.equal(rewound.code, 0, rewound.stderr);
  // One block a batch: the ingest holds the log for seconds.
  const ingest = spawn(
    process.execPath,
    [BIN, 'ingest', '--data', data, '--capture', inputs.capture, '--batch-logs', '1'],
    { stdio: 'ignore' },
  );
  t.teardown(() => ingest.kill());
  const lock = join(data, 'log', 'LOCK');
  while (!(existsSync(lock) && readFileSync(lock, 'utf8') === String(ingest.pid))) await sleep(20);
  const refused = await runTallyAsync(['rewind', '--data', data, '--to-block', String(rewindTo)]);
  t.equal(ingest.exitCode, null, 'the ingest was still running');
  t.equal(refused.code, 1);
  t.match(
    refused.stderr,
    new RegExp(
      `^tally: log is locked by process ${ingest.pid}, which is writing .*: let it finish or stop it first\n$`,
    ),
  );
  t.notOk(
    readdirSync(data).some((name) => name.startsWith('rewind-scratch-')),
    'nothing folded',
  );
});
