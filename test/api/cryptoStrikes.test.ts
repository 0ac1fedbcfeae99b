// Crypto strikes over HTTP on the demo venue: every round the metadata lists, its strike and close read from the
// folded feed; on the demo (whose rounds resolve by the feed itself) the implied outcome equals the resolution.
import t from 'tap';
import { startServer } from '../../cli/commands/serveCommand.js';
import { CryptoStrikesAnswer } from '../../api/schemas/answerSchemas.js';
import { createDemoData } from '../fixtures/demoData.js';
import { answerProblems } from '../fixtures/checkAnswer.js';
import { apiClient } from '../fixtures/apiClient.js';
import { ERROR } from '../../api/errorTexts.js';

const { data, key } = await createDemoData(4_000, 12);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const get = apiClient(server.port, key);

t.test('default: rounds newest first; the outcome the feed implies is the resolution', async (t) => {
  const all = await get('/v1/crypto/strikes?limit=1000');
  t.equal(all.status, 200);
  t.same(answerProblems(CryptoStrikesAnswer, all.body), [], 'the answer matches its schema');
  const rows = all.body.rows;
  t.ok(rows.length > 20, `${rows.length} rounds`);
  t.ok(
    rows.every((r: any, i: number) => i === 0 || rows[i - 1].startTs >= r.startTs),
    'newest start first',
  );
  const settled = rows.filter((r: any) => r.outcome !== null && r.resolution !== null);
  t.ok(settled.length > 10, `${settled.length} rounds with an outcome and a resolution`);
  t.same(
    settled.filter((r: any) => r.outcome !== r.resolution).map((r: any) => r.conditionId),
    [],
    'each outcome is its resolution',
  );
  t.ok(
    rows.every((r: any) => r.endTs - r.startTs === 900 && (r.strike === null || r.strike > 0)),
    '15-minute rounds, strikes are prices',
  );
  const btc = await get('/v1/crypto/strikes?asset=btc&limit=1000');
  t.same(
    btc.body.rows,
    rows.filter((r: any) => r.asset === 'BTC'),
    'asset filter, any letter case',
  );
  const [, second] = btc.body.rows;
  const window = await get(`/v1/crypto/strikes?asset=BTC&from=${second.startTs}&to=${second.startTs + 1}`);
  t.same(
    window.body.rows,
    btc.body.rows.filter((r: any) => r.startTs === second.startTs),
    'from inclusive, to exclusive',
  );
  const page = await get('/v1/crypto/strikes?limit=5&offset=5');
  t.same(page.body.rows, rows.slice(5, 10));
  t.equal(page.body.next, 10);
});

t.test('error: a bad asset or window names itself', async (t) => {
  const doge = await get('/v1/crypto/strikes?asset=DOGE');
  t.same([doge.status, doge.body], [400, { error: ERROR.badStrikeAsset }]);
  const from = await get('/v1/crypto/strikes?from=yesterday');
  t.same([from.status, from.body], [400, { error: 'from must be an integer, 0 or more' }]);
});
