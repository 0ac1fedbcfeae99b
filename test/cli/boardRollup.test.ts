// When the board is rolled up: after a fold, again when the metadata (its categories) changes, not again when
// nothing changed, and by `serve` when it finds the board behind the state (a fold stopped before its rollup),
// unless another process holds the log (it folds, and rolls up itself); again when the board's rules changed.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../cli/commands/serveCommand.js';
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import { GLOBAL, OTHER } from '../../engine/rollup/boardCategories.js';
import { RESULT, RESULT_WIDTH } from '../../engine/state/boardRecords.js';
import { BOARD_RULES } from '../../engine/rollup/boardRow.js';
import { readBoardInfo } from '../../engine/state/boardTables.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { encodeValue } from '../../engine/state/stateCodec.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { createDemoInputs, emptyDataDir } from '../fixtures/demoVenue.js';
import { runTally } from '../fixtures/runTally.js';

const inputs = await createDemoInputs(1_500, 5);
const data = emptyDataDir(inputs, 'data');
const ROLLED = /leaderboard rolled up as of block (\d+): (\d+) wallets/;

async function board(): Promise<{ block: number | null; global: number; other: number }> {
  const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
  const state = createStateReader(store);
  const count = (category: number) => [...state.boardRows(category)].length;
  const answer = { block: state.board()?.block ?? null, global: count(GLOBAL), other: count(OTHER) };
  await store.close();
  return answer;
}

t.test(
  'default: a fold rolls up; metadata rolls up again with its categories; nothing new rolls up nothing',
  async (t) => {
    const ingest = runTally(['ingest', '--data', data, '--capture', inputs.capture]);
    t.equal(ingest.code, 0, ingest.stderr);
    t.match(ingest.stderr, ROLLED);
    const bare = await board();
    t.ok(bare.global > 0 && bare.other === bare.global, 'without metadata every market is Other');
    const metadata = runTally(['metadata', '--data', data, '--file', inputs.metadata]);
    t.equal(metadata.code, 0, metadata.stderr);
    t.match(metadata.stderr, ROLLED);
    const categorized = await board();
    t.equal(categorized.global, bare.global);
    t.ok(
      categorized.other < bare.other,
      `with metadata ${categorized.other} of ${bare.global} wallets have an Other row`,
    );
    const again = runTally(['ingest', '--data', data]);
    t.equal(again.code, 0, again.stderr);
    t.notMatch(again.stderr, ROLLED, 'the board already as of this block and metadata is kept');
  },
);

t.test('behavior: serve rolls up a board left behind its state, unless another process folds', async (t) => {
  const before = await board();
  const store = openStateStore({ dir: join(data, 'state') });
  await store.dbs.meta.remove('board');
  await store.close();
  // A live process (this one) holding the log: serve leaves the board to it.
  writeFileSync(join(data, 'log', 'LOCK'), String(process.pid));
  let server = await startServer({ data, host: '127.0.0.1', port: 0 });
  await server.closeAll();
  t.equal((await board()).block, null, 'not rolled up while the log is held');
  writeFileSync(join(data, 'log', 'LOCK'), '999999999');
  server = await startServer({ data, host: '127.0.0.1', port: 0 });
  await server.closeAll();
  t.same(await board(), before, 'rolled up again, the same board');
});

t.test('behavior: a board summed by older rules is rolled up again, by a fold and by serve', async (t) => {
  const before = await board();
  const setRules = async (rules: number | undefined) => {
    const store = openStateStore({ dir: join(data, 'state') });
    const info = readBoardInfo(store)!;
    await store.dbs.meta.put('board', encodeValue({ ...info, rules }));
    await store.close();
  };
  const rules = async () => {
    const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
    const info = readBoardInfo(store);
    await store.close();
    return info?.rules;
  };
  t.equal(await rules(), BOARD_RULES);
  await setRules(undefined);
  const again = runTally(['ingest', '--data', data]);
  t.equal(again.code, 0, again.stderr);
  t.match(again.stderr, ROLLED, 'a board with no rules version (before version 2) is rolled up by the next fold');
  t.equal(await rules(), BOARD_RULES);
  await setRules(BOARD_RULES - 1);
  const server = await startServer({ data, host: '127.0.0.1', port: 0 });
  await server.closeAll();
  t.equal(await rules(), BOARD_RULES, 'and by serve');
  t.same(await board(), before, 'the same board');
});

t.test('behavior: a market whose fills came before the log explained its token is rolled up by token', async (t) => {
  // The first half of this capture trades a token before the log explains it, and nothing names its market
  // again: the state has the token's market but no id for the condition (the rollup once stopped on it, exit 70).
  const cut = await createDemoInputs(100, 6);
  const lines = readFileSync(cut.capture, 'utf8').trimEnd().split('\n');
  const half = join(cut.dir, 'half.ndjson');
  writeFileSync(half, lines.slice(0, lines.length >> 1).join('\n') + '\n');
  const dir = emptyDataDir(cut, 'half');
  const ingest = runTally(['ingest', '--data', dir, '--capture', half]);
  t.equal(ingest.code, 0, ingest.stderr);
  t.match(ingest.stderr, ROLLED);
  const store = openStateStore({ dir: join(dir, 'state'), readOnly: true });
  const state = createStateReader(store);
  const byToken = [...state.boardResults()].flatMap(({ results }) => {
    const found: number[] = [];
    for (let at = 0; at < results.length; at += RESULT_WIDTH) {
      if (
        results[at + RESULT.space] === ID_SPACE.token &&
        state.token(state.idText(ID_SPACE.token, results[at + RESULT.id]!)) !== null
      )
        found.push(at);
    }
    return found;
  });
  await store.close();
  t.ok(byToken.length > 0, `${byToken.length} results of a known token kept by token`);
});
