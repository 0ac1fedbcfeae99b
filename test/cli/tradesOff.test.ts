// The trade store turned off (config.json "trades": false): the fold keeps no fills, the routes that read fills
// answer 503 `trades are off`, positions answer as with the store on; turning it back on folds the state again
// from the log, after which the fill routes answer as a state that always had it.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../cli/commands/serveCommand.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { apiClient } from '../fixtures/apiClient.js';
import { busiestMarkets } from '../fixtures/demoData.js';
import { createDemoInputs, emptyDataDir } from '../fixtures/demoVenue.js';
import { runTally } from '../fixtures/runTally.js';
import { createKey } from '../fixtures/apiKey.js';

const inputs = await createDemoInputs(2_000, 21);
const on = emptyDataDir(inputs, 'on');
const off = emptyDataDir(inputs, 'off');
const setTrades = (data: string, trades: boolean) => {
  const config = JSON.parse(readFileSync(inputs.config, 'utf8'));
  writeFileSync(join(data, 'config.json'), JSON.stringify({ ...config, trades }));
};
setTrades(off, false);
for (const data of [on, off]) {
  const ingest = runTally(['ingest', '--data', data, '--capture', inputs.capture, '--metadata', inputs.metadata]);
  if (ingest.code !== 0) throw new Error(ingest.stderr);
}
const key = await createKey(on);
const offKey = await createKey(off);
const [market] = (await busiestMarkets(on, 1)) as [string];

async function holdersOf(data: string): Promise<string[]> {
  const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
  const wallets = [...createStateReader(store).positionHolders()].slice(0, 10).map((holder) => holder.wallet);
  await store.close();
  return wallets;
}

async function answers(data: string, apiKey: string, paths: string[]): Promise<string[]> {
  const server = await startServer({ data, host: '127.0.0.1', port: 0 });
  try {
    const get = apiClient(server.port, apiKey);
    return await Promise.all(
      paths.map(async (path) => JSON.stringify(await get(path).then(({ status, body }) => [status, body]))),
    );
  } finally {
    await server.closeAll();
  }
}

const wallets = await holdersOf(on);
const positionPaths = wallets.flatMap((w) => [
  `/v1/wallets/${w}/positions`,
  `/v1/wallets/${w}/positions?status=open`,
  `/v1/wallets/${w}/closed-positions`,
]);
const marketPaths = [`/v1/markets/${market}/traders`, `/v1/markets/${market}/holder-lines`];
const tradePaths = [
  `/v1/fills?markets=${market}&from=0&to=604800`,
  `/v1/wallets/${wallets[0]}/trades`,
  `/v1/markets/${market}/trades`,
  `/v1/markets/${market}/trade-counts?wallets=${wallets[0]}`,
  '/v1/events/heat',
];

t.test('behavior: with the trade store off, positions answer the same and the fill routes are off', async (t) => {
  t.same(await holdersOf(off), wallets, 'the same wallets hold positions');
  const store = openStateStore({ dir: join(off, 'state'), readOnly: true });
  t.equal(store.dbs.fills.getKeysCount(), 0, 'no fills table');
  t.equal(store.dbs.walletFills.getKeysCount() + store.dbs.marketFills.getKeysCount(), 0, 'no fill lists');
  t.notOk(createStateReader(store).keepsTrades());
  await store.close();
  t.same(
    await answers(off, offKey, [...positionPaths, ...marketPaths]),
    await answers(on, key, [...positionPaths, ...marketPaths]),
    'positions and market holders as with the store on',
  );
  for (const text of await answers(off, offKey, tradePaths))
    t.equal(text, JSON.stringify([503, { error: 'trades are off' }]));
});

t.test('behavior: turning the store back on folds the state again, and the fill routes answer', async (t) => {
  setTrades(off, true);
  const ingest = runTally(['ingest', '--data', off]);
  t.equal(ingest.code, 0, ingest.stderr);
  t.match(
    ingest.stderr,
    /folded by another state layout or other options in config\.json: it is folded again from the log/,
  );
  const onTrades = (await answers(on, key, tradePaths)).map((text) => text.replace(/"block":\d+/, ''));
  t.same(
    (await answers(off, offKey, tradePaths)).map((text) => text.replace(/"block":\d+/, '')),
    onTrades,
    'the same fill answers',
  );
  t.ok(
    onTrades.every((text) => text.startsWith('[200,')),
    'all answered',
  );
});

t.test('error: a bad config names the file', async (t) => {
  const bad = emptyDataDir(inputs, 'bad');
  writeFileSync(join(bad, 'config.json'), JSON.stringify({ trades: 'no' }));
  const ingest = runTally(['ingest', '--data', bad, '--capture', inputs.capture]);
  t.equal(ingest.code, 1);
  t.match(ingest.stderr, /config\.json: trades must be true or false/);
  // Config errors are input errors: one line naming the file, exit 1 (not a bug's stack and 70).
  writeFileSync(join(bad, 'config.json'), JSON.stringify({ addresses: { ctf: 'zz' } }));
  const address = runTally(['ingest', '--data', bad, '--capture', inputs.capture]);
  t.same([address.code, address.stderr.trim().split('\n').length], [1, 1]);
  t.match(address.stderr, /config\.json: ctf is not an address/);
  writeFileSync(join(bad, 'config.json'), '{ nope');
  t.match(runTally(['ingest', '--data', bad, '--capture', inputs.capture]).stderr, /config\.json: not valid JSON/);
});
