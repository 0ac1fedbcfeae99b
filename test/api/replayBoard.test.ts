// Replay reproduces the board: stats, categories and the leaderboard answered at two blocks of the demo (its
// middle and its end), live (the fold stopping at each, its rollup after it), equal to the byte those of `tally
// replay --to-block N`.
import t from 'tap';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { createDemoInputs } from '../fixtures/demoVenue.js';
import { runTally } from '../fixtures/runTally.js';
import { captureBlocks, servedAnswers, writeCaptureUpTo } from '../fixtures/servedAnswers.js';
import { createKey } from '../fixtures/apiKey.js';

const inputs = await createDemoInputs(4_000, 17);
const { lines, blockAt } = captureBlocks(inputs.capture);
const blocks = [blockAt(0.5), blockAt(0.999)];
const data = join(inputs.dir, 'data');
mkdirSync(data);
copyFileSync(inputs.config, join(data, 'config.json'));
const key = await createKey(data);

function ingestTo(block: number): void {
  const capture = writeCaptureUpTo(lines, block, join(inputs.dir, `to-${block}.ndjson`));
  const ingest = runTally(['ingest', '--data', data, '--capture', capture, '--metadata', inputs.metadata]);
  if (ingest.code !== 0) throw new Error(ingest.stderr);
}

ingestTo(blocks[0]!);
const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
const state = createStateReader(store);
const wallets = [...state.positionHolders()].slice(0, 12).map((holder) => holder.wallet);
const firstTs = state.block(state.cursor().block)!.ts;
await store.close();
const custom = `from=${firstTs - 20 * 86_400}&to=${firstTs}`;
const paths = [
  ...wallets.flatMap((w) => [
    `/v1/wallets/${w}/stats`,
    `/v1/wallets/${w}/stats?period=7d`,
    `/v1/wallets/${w}/stats?period=30d&category=sports`,
    `/v1/wallets/${w}/stats?${custom}`,
    `/v1/wallets/${w}/categories`,
    `/v1/wallets/${w}/categories?period=90d`,
  ]),
  '/v1/leaderboard',
  '/v1/leaderboard?sort=volume&limit=50&offset=10',
  '/v1/leaderboard?period=7d&sort=roi',
  '/v1/leaderboard?period=1y&category=Crypto',
  `/v1/leaderboard?${custom}&sort=realizedPnl`,
  '/v1/leaderboard?category=other',
];

t.test('default: at two blocks, replay to block N answers the board as the live state did at N', async (t) => {
  const live: string[][] = [];
  for (const [i, block] of blocks.entries()) {
    if (i > 0) ingestTo(block);
    const answers = await servedAnswers(data, key, paths);
    const failed = answers.findIndex((text) => !text.startsWith('200 '));
    t.equal(
      failed,
      -1,
      failed < 0 ? `block ${block}: all answered` : `${paths[failed]}: ${answers[failed]!.slice(0, 200)}`,
    );
    t.match(answers[0], new RegExp(`^200 \\{"block":${block},`), 'the rollup is as of the block the fold stopped at');
    live.push(answers);
  }
  t.not(live[0]!.join('\n'), live[1]!.join('\n'), 'the board moved on');
  for (const [i, block] of blocks.entries()) {
    const out = join(inputs.dir, `replayed-${block}`);
    const replay = runTally(['replay', '--data', data, '--to-block', String(block), '--out', out]);
    t.equal(replay.code, 0, replay.stderr);
    const replayed = await servedAnswers(out, key, paths);
    const differ = replayed.findIndex((text, j) => text !== live[i]![j]);
    t.equal(differ, -1, differ < 0 ? `block ${block}: identical bytes` : `block ${block}: ${paths[differ]} differs`);
  }
});
