// The answers of every wallet route for 200 demo wallets, recorded in test/fixtures/golden/walletAnswers.ndjson.gz
// (raw, open and closed positions, closed positions by exit and by pnl, two pages of trades). A change of how
// state is stored or computed must leave them byte-identical, except differences a test names one by one.
// TALLY_RECORD_GOLDEN=1 rewrites the file: only for a deliberate change of answers, said in its commit.
import t from 'tap';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { startServer } from '../../engine/cli/commands/serveCommand.js';
import { createDemoData } from '../fixtures/demoData.js';
import { runTally } from '../fixtures/runTally.js';
import { chooseWallets, recordWalletAnswers, type RecordedAnswer } from '../fixtures/walletAnswers.js';

const GOLDEN = new URL('../fixtures/golden/walletAnswers.ndjson.gz', import.meta.url);
const FILLS = 8000;
const SEED = 9;
const WALLETS = 200;

const { data, key } = await createDemoData(FILLS, SEED);
const keys = [key, ...Array.from({ length: 2 }, () => runTally(['keys', 'create', '--data', data]).stdout.trim().split('\n').at(-1)!)];
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const answers = await recordWalletAnswers(`http://127.0.0.1:${server.port}`, keys, await chooseWallets(data, WALLETS));
const lines = (list: RecordedAnswer[]) => list.map((answer) => JSON.stringify(answer)).join('\n') + '\n';

if (process.env.TALLY_RECORD_GOLDEN === '1') {
  writeFileSync(GOLDEN, gzipSync(lines(answers), { level: 9 }));
  t.comment(`recorded ${answers.length} answers into ${GOLDEN.pathname}`);
}

t.test('default: every wallet route answers as recorded', async (t) => {
  t.ok(existsSync(GOLDEN), 'the golden file exists');
  const golden = gunzipSync(readFileSync(GOLDEN)).toString('utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as RecordedAnswer);
  t.equal(answers.length, golden.length, 'as many answers');
  t.ok(answers.every((answer) => answer.status === 200), 'every recorded answer is a 200');
  const differing = answers.filter((answer, i) => golden[i]?.path !== answer.path || golden[i]?.body !== answer.body);
  t.same(differing.slice(0, 5).map((answer) => answer.path), [], `${differing.length} answers differ`);
});
