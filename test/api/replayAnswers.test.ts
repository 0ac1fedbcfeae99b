// Replay reproduces answers: the wallet, market, fills and heat routes' answers (and the Data API shapes') at block N,
// recorded live, equal to the byte those of `tally replay --to-block N` after the fold has gone on to the end.
import t from 'tap';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { createDemoInputs } from '../fixtures/demoVenue.js';
import { runTally } from '../fixtures/runTally.js';
import { busiestMarkets } from '../fixtures/demoData.js';
import { captureBlocks, servedAnswers, writeCaptureUpTo } from '../fixtures/servedAnswers.js';
import { createKey } from '../fixtures/apiKey.js';

const inputs = await createDemoInputs(4_000, 13);
const { lines, blockAt } = captureBlocks(inputs.capture);
const middle = blockAt(0.5);
const firstHalf = writeCaptureUpTo(lines, middle, join(inputs.dir, 'first-half.ndjson'));
const data = join(inputs.dir, 'data');
mkdirSync(data);
copyFileSync(inputs.config, join(data, 'config.json'));
t.equal(runTally(['ingest', '--data', data, '--capture', firstHalf, '--metadata', inputs.metadata]).code, 0);
const key = await createKey(data);

const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
const state = createStateReader(store);
const wallets = [...state.positionHolders()].slice(0, 20).map((holder) => holder.wallet);
const servedTs = state.block(state.cursor().block)!.ts;
await store.close();
const markets = await busiestMarkets(data, 20);
const week = `from=${servedTs - 604_799}&to=${servedTs + 1}`;
const paths = [
  ...wallets.flatMap((w) => [
    `/v1/wallets/${w}/positions`,
    `/v1/wallets/${w}/positions?status=open`,
    `/v1/wallets/${w}/positions?status=closed`,
    `/v1/wallets/${w}/trades?limit=50`,
  ]),
  ...markets.flatMap((m) => [
    `/v1/markets/${m}/traders?limit=50`,
    `/v1/markets/${m}/top-traders`,
    `/v1/markets/${m}/holder-lines`,
    `/v1/markets/${m}/trade-counts?wallets=${wallets.slice(0, 5).join(',')}`,
    `/v1/markets/${m}/trades?limit=50`,
    `/v1/fills?markets=${m}&${week}`,
  ]),
  `/v1/fills?markets=${markets.join(',')}&${week}&limit=500`,
  '/v1/events/heat?window=1h',
  '/v1/events/heat?window=24h',
  // The venue's Data API shapes (docs/venue-api.md), reproducible the same way.
  ...wallets
    .slice(0, 5)
    .flatMap((w) => [
      `/positions?user=${w}&sizeThreshold=0`,
      `/closed-positions?user=${w}&limit=50`,
      `/value?user=${w}`,
      `/traded?user=${w}`,
      `/trades?user=${w}&takerOnly=false&limit=50`,
      `/activity?user=${w}&limit=100`,
      `/activity?user=${w}&sortBy=CASH&limit=100`,
    ]),
  '/trades?takerOnly=false&limit=200',
  ...markets
    .slice(0, 5)
    .flatMap((m) => [`/holders?market=${m}&limit=100`, `/trades?market=${m}&takerOnly=false&limit=50`]),
];

const answers = (dir: string) => servedAnswers(dir, key, paths);

t.test('default: replay to block N answers as the live state did at block N', async (t) => {
  t.equal(wallets.length, 20);
  t.equal(markets.length, 20);
  const live = await answers(data);
  const failed = live.findIndex((text) => !text.startsWith('200 '));
  t.equal(failed, -1, failed < 0 ? 'all answered' : `${paths[failed]}: ${live[failed]!.slice(0, 200)}`);
  t.equal(runTally(['ingest', '--data', data, '--capture', inputs.capture]).code, 0, 'the fold goes on to the end');
  const moved = await answers(data);
  t.not(moved.join('\n'), live.join('\n'), 'the answers have moved on');
  const out = join(inputs.dir, 'replayed');
  const replay = runTally(['replay', '--data', data, '--to-block', String(middle), '--out', out]);
  t.equal(replay.code, 0, replay.stderr);
  const replayed = await answers(out);
  const differ = replayed.findIndex((text, i) => text !== live[i]);
  t.equal(differ, -1, differ < 0 ? 'identical bytes' : `${paths[differ]} differs`);
});
