// The board's answers on a demo venue (stats in every period, categories, leaderboard pages in every sort),
// recorded in test/fixtures/golden/boardAnswers.ndjson.gz before issue 22 item 8 changed which markets a window
// takes in (DESIGN.md 4). Every byte must be as recorded, except the differences named and counted below.
// TALLY_RECORD_GOLDEN=1 rewrites the file: only for a deliberate change of answers, said in its commit.
import t from 'tap';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { startServer } from '../../cli/commands/serveCommand.js';
import { createDemoData } from '../fixtures/demoData.js';
import { runTally } from '../fixtures/runTally.js';
import { chooseWallets, type RecordedAnswer } from '../fixtures/walletAnswers.js';

const GOLDEN = new URL('../fixtures/golden/boardAnswers.ndjson.gz', import.meta.url);
const FILLS = 8000;
const SEED = 9;
const WALLETS = 60;
const PERIODS = ['all', '1y', '90d', '30d', '7d', '1d'];
const SORTS = ['totalPnl', 'realizedPnl', 'volume', 'roi'];

const { data, key } = await createDemoData(FILLS, SEED);
const keys = [key, ...Array.from({ length: 3 }, () => runTally(['keys', 'create', '--data', data]).stdout.trim().split('\n').at(-1)!)];
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());

const answers: RecordedAnswer[] = [];
let request = 0;
async function record(path: string): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers: { authorization: `Bearer ${keys[request++ % keys.length]}` } });
  answers.push({ path, status: response.status, body: await response.text() });
}
for (const wallet of await chooseWallets(data, WALLETS)) {
  for (const period of PERIODS) await record(`/v1/wallets/${wallet}/stats?period=${period}`);
  for (const period of ['all', '7d']) await record(`/v1/wallets/${wallet}/categories?period=${period}`);
}
for (const period of ['all', '1y', '7d']) {
  for (const sort of SORTS) await record(`/v1/leaderboard?period=${period}&sort=${sort}&limit=100`);
}

if (process.env.TALLY_RECORD_GOLDEN === '1') {
  writeFileSync(GOLDEN, gzipSync(answers.map((answer) => JSON.stringify(answer)).join('\n') + '\n', { level: 9 }));
  t.comment(`recorded ${answers.length} answers into ${GOLDEN.pathname}`);
}

t.test('default: every board answer is as recorded', async (t) => {
  t.ok(existsSync(GOLDEN), 'the golden file exists');
  const golden = gunzipSync(readFileSync(GOLDEN)).toString('utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as RecordedAnswer);
  t.equal(answers.length, golden.length, 'as many answers');
  t.ok(answers.every((answer) => answer.status === 200), 'every recorded answer is a 200');
  const differing = answers.filter((answer, i) => answer.path !== golden[i]!.path || answer.body !== golden[i]!.body);
  t.same(differing.slice(0, 3).map((answer) => answer.path), [], `${differing.length} answers differ`);
});
