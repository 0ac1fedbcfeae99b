// `tally run --metadata-url U` against a local chain (ganache with the venue's contracts) and a fake market API on
// 127.0.0.1 whose answer the test changes: metadata is loaded at start and refreshed every `--metadata-every`
// seconds; a refresh that changes it changes the served answers (a market's question at once, the board's
// categories at the fold's next rest); a failed refresh is logged and the next one succeeds, the process going on.
import t from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalChain } from '../fixtures/localChain.js';
import { startTallyRun } from '../fixtures/tallyRun.js';
import { emitVenueScenario } from '../fixtures/venueScenario.js';

const chain = await startLocalChain();
t.teardown(() => chain.close());
const scenario = await emitVenueScenario(chain);
const data = join(mkdtempSync(join(tmpdir(), 'tally-run-metadata-')), 'venue');
mkdirSync(data);
writeFileSync(join(data, 'config.json'), JSON.stringify({ addresses: scenario.config }));

/** What the fake API answers: the scenario's market with this question and category, or a 404. */
let market: { question: string; category: string } | null = { question: 'First question?', category: 'Sports' };
let served = 0;
const api = createServer((_req, res) => {
  served++;
  if (!market) return res.writeHead(404).end('{"error":"not found"}');
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify([{ conditionId: scenario.conditionId, ...market }]));
});
await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
t.teardown(() => api.close());
const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/markets`;

const run = await startTallyRun(data, ['--rpc', chain.url, '--metadata-url', apiUrl, '--metadata-every', '1']);

async function waitFor(what: string, done: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  for (const started = Date.now(); !(await done()); ) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}: ${run.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const bob = chain.accounts[2]!.toLowerCase();
const answer = async (path: string) => (await run.get(path)).text();
const trades = () => answer(`/wallets/${bob}/trades`);
/** The categories of bob's board rows; the rollup runs at the fold's next rest, so a block is mined meanwhile. */
async function categories(): Promise<string> {
  await chain.rpc('evm_mine');
  return answer(`/wallets/${bob}/categories`);
}

t.teardown(async () => {
  await run.stop();
});

t.test('default: metadata loaded at start reaches the answers and the board', async (t) => {
  await waitFor('the question', async () => (await trades()).includes('First question?'));
  await waitFor('the category on the board', async () => (await categories()).includes('"Sports"'));
  t.pass('question and category served');
});

t.test('behavior: a refresh that changes metadata changes the served answers', async (t) => {
  market = { question: 'Second question?', category: 'Politics' };
  await waitFor('the new question', async () => (await trades()).includes('Second question?'));
  await waitFor('the new category on the board', async () => (await categories()).includes('"Politics"'));
  t.notMatch(await trades(), /First question\?/);
  t.match(run.stderr(), /^metadata: 1 markets from .* \(0 new, 1 changed\)$/m);
});

t.test('error: a failed refresh is logged and the next one goes on; the process does not end', async (t) => {
  market = null;
  const escaped = apiUrl.replace(/[.?]/g, '\\$&');
  await waitFor('the failure', () =>
    new RegExp(
      `^metadata: the refresh from ${escaped} failed: cannot fetch ${escaped}\\?limit=\\d+: ` +
        'HTTP 404 Not Found; next in 1 s$',
      'm',
    ).test(run.stderr()),
  );
  const failedAt = served;
  await waitFor('another attempt', () => served > failedAt);
  market = { question: 'Third question?', category: 'Politics' };
  await waitFor('the question after the failure', async () => (await trades()).includes('Third question?'));
  t.equal(run.exitCode(), null, 'still running');
  t.equal(await run.stop(), 0, run.stderr());
});
