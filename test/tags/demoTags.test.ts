// Wallet tags on the demo venue (200,000 fills, whose bot wallets are built to the rules): every bot is tagged
// with its kind and no other wallet is tagged (precision and recall 1.0 per kind, printed); a replayed state
// makes the same run, byte for byte, with the same ETag; If-None-Match gets 304; 503 before any run.
import t from 'tap';
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { startServer } from '../../cli/commands/serveCommand.js';
import { ERROR } from '../../api/errorTexts.js';
import { WalletTagsAnswer } from '../../api/schemas/answerSchemas.js';
import { TAG_KINDS } from '../../engine/tags/walletTagRules.js';
import { answerProblems } from '../fixtures/checkAnswer.js';
import { apiClient } from '../fixtures/apiClient.js';
import { createDemoInputs, emptyDataDir } from '../fixtures/demoVenue.js';
import { runTally } from '../fixtures/runTally.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { putTagRun } from '../../engine/state/tagRuns.js';
import { createKey } from '../fixtures/apiKey.js';

const inputs = await createDemoInputs(200_000, 1);
const summary = JSON.parse(readFileSync(join(inputs.dir, 'inputs', 'demo.json'), 'utf8')) as {
  walletAddresses: Record<string, string[]>;
  firstTs: number;
};
const data = emptyDataDir(inputs, 'data');
const ingest = runTally(['ingest', '--data', data, '--capture', inputs.capture, '--metadata', inputs.metadata]);
if (ingest.code !== 0) throw new Error(ingest.stderr);
const key = await createKey(data);

async function tagsAnswer(
  dir: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; etag: string | null; text: string }> {
  const server = await startServer({ data: dir, host: '127.0.0.1', port: 0 });
  try {
    const response = await fetch(`http://127.0.0.1:${server.port}/v1/wallets/tags`, {
      headers: { authorization: `Bearer ${key}`, connection: 'close', ...headers },
    });
    return { status: response.status, etag: response.headers.get('etag'), text: await response.text() };
  } finally {
    await server.closeAll();
  }
}

const KIND_OF: Record<string, string> = {
  marketMaker: 'market-maker',
  highFrequency: 'high-frequency',
  updownBot: 'updown-bot',
  arbitrageur: 'arbitrage',
  copyTrader: 'copy-trader',
};

t.test('default: every bot tagged with its kind, nobody else tagged', async (t) => {
  const answer = await tagsAnswer(data);
  t.equal(answer.status, 200);
  const run = JSON.parse(answer.text);
  t.same(answerProblems(WalletTagsAnswer, run), [], 'the answer matches its schema');
  t.equal(run.count, Object.keys(run.tags).length);
  t.equal(Date.parse(run.windowEnd) - Date.parse(run.windowStart), 7 * 86_400_000, 'a 7-day window');
  const truth = new Map<string, string>();
  for (const [kind, wallets] of Object.entries(summary.walletAddresses))
    for (const wallet of wallets) if (KIND_OF[kind]) truth.set(wallet, KIND_OF[kind]!);
  for (const kind of TAG_KINDS) {
    const tagged = Object.keys(run.tags).filter((wallet) => run.tags[wallet].kind === kind);
    const actual = [...truth].filter(([, k]) => k === kind).map(([wallet]) => wallet);
    const right = tagged.filter((wallet) => truth.get(wallet) === kind).length;
    t.comment(
      `${kind}: ${tagged.length} tagged, ${actual.length} in the demo; precision ${(right / tagged.length).toFixed(2)}, recall ${(right / actual.length).toFixed(2)}`,
    );
    t.ok(actual.length > 0, `the demo has ${kind} wallets`);
    t.equal(right, tagged.length, `${kind}: precision 1.0`);
    t.equal(right, actual.length, `${kind}: recall 1.0`);
  }
  const hf = Object.values(run.tags as Record<string, any>).find((tag) => tag.kind === 'high-frequency');
  t.ok(
    hf.facts.ordersPerDay >= 200 &&
      hf.facts.hoursPerDay >= 8 &&
      hf.facts.days >= 3 &&
      hf.text.length > 0 &&
      !Number.isNaN(Date.parse(hf.since)),
  );
});

t.test('behavior: a replayed state makes the same run, byte for byte and ETag; If-None-Match gets 304', async (t) => {
  const live = await tagsAnswer(data);
  t.ok(live.etag, 'an ETag');
  const out = join(inputs.dir, 'replayed');
  const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
  const block = createStateReader(store).cursor().block;
  await store.close();
  t.equal(runTally(['replay', '--data', data, '--to-block', String(block), '--out', out]).code, 0);
  const replayed = await tagsAnswer(out);
  t.same([replayed.text, replayed.etag], [live.text, live.etag]);
  const again = await tagsAnswer(data, { 'if-none-match': live.etag! });
  t.same([again.status, again.text, again.etag], [304, '', live.etag]);
  t.equal((await tagsAnswer(data, { 'if-none-match': '"other"' })).status, 200);
});

t.test('error: before the fold passes a midnight, 503 no wallet-tags run yet', async (t) => {
  // The capture's first blocks, all before its first UTC midnight (it is too big to read whole: streamed). A few
  // thousand lines are enough: more only lengthen the fold.
  const firstDayEnd = Math.floor(summary.firstTs / 86_400) * 86_400 + 86_400;
  const early: string[] = [];
  for await (const line of createInterface({ input: createReadStream(inputs.capture), crlfDelay: Infinity })) {
    const { blockTimestamp, blockNumber } = JSON.parse(line);
    if (Number(blockTimestamp) >= firstDayEnd) break;
    if (early.length >= 3_000 && blockNumber !== JSON.parse(early.at(-1)!).blockNumber) break;
    early.push(line);
  }
  const capture = join(inputs.dir, 'first-day.ndjson');
  writeFileSync(capture, early.join('\n') + '\n');
  const dir = emptyDataDir(inputs, 'first-day');
  t.equal(runTally(['ingest', '--data', dir, '--capture', capture]).code, 0);
  const dayKey = await createKey(dir);
  const server = await startServer({ data: dir, host: '127.0.0.1', port: 0 });
  try {
    const get = apiClient(server.port, dayKey);
    const answer = await get('/v1/wallets/tags');
    t.same([answer.status, answer.body], [503, { error: ERROR.noTagsRun }]);
    t.equal((await get('/v1/health')).body.rollups.tags, null);
    // Runs written while the server runs (the rollup writes one after the board, the cursor unmoved) are
    // answered at once: an answer cached before a run is not served after it.
    const written = async (number: number) => {
      const run = {
        run: number,
        rulesVersion: 1,
        windowStart: '1970-01-01T00:00:00Z',
        windowEnd: '1970-01-02T00:00:00Z',
        computedAt: '1970-01-02T00:00:00Z',
        count: 0,
        tags: {},
      };
      const store = openStateStore({ dir: join(dir, 'state') });
      putTagRun(store, run, null);
      await store.close();
      return run;
    };
    const first = await written(1);
    t.same(await get('/v1/wallets/tags').then((a) => [a.status, a.body]), [200, first]);
    const second = await written(2);
    t.same(
      await get('/v1/wallets/tags').then((a) => [a.status, a.body]),
      [200, second],
      'the newer run, not the cached answer',
    );
    t.equal((await get('/v1/health')).body.rollups.tags, 2);
  } finally {
    await server.closeAll();
  }
});
