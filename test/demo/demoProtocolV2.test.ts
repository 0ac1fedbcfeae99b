// The demo's 2026 second ledger (cli/demo/demoProtocolV2.ts, issue 23 item 5), folded through `tally ingest`
// and read over HTTP: the era's kinds appear; money is conserved to the micro-dollar (what every era wallet paid
// and was paid, from the capture's own events, equals the sum of its positions' realized PnL and remaining
// basis); every V2 row carries ComboExtras of the right types; no venue contract is a wallet in any answer; and the
// fold is deterministic (1 against 3 workers, tally verify).
import t from 'tap';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KIND, type ChainEvent } from '../../engine/chain/chainEvent.js';
import { protocolV2Contracts } from '../../engine/chain/protocolV2Contracts.js';
import { clobVenueContracts, POLYGON_ADDRESSES as A } from '../../engine/chain/venueAddresses.js';
import { startServer } from '../../cli/commands/serveCommand.js';
import {
  ClosedPositionsAnswer,
  MarketAnswer,
  MarketTradersAnswer,
  OpenPositionsAnswer,
  RawPositionsAnswer,
} from '../../api/schemas/answerSchemas.js';
import { DEMO_PRICE_FEEDS } from '../../cli/demo/demoFeeds.js';
import { generateDemoVenue } from '../../cli/demo/generateDemoVenue.js';
import { apiClient } from '../fixtures/apiClient.js';
import { createKey } from '../fixtures/apiKey.js';
import { answerProblems } from '../fixtures/checkAnswer.js';
import { runTally } from '../fixtures/runTally.js';
import { stateDigest } from '../../engine/state/stateDigest.js';

const dir = mkdtempSync(join(tmpdir(), 'tally-demo-v2-'));
const inputs = join(dir, 'inputs');
const events: Array<{ event: ChainEvent; address: string; block: number }> = [];
const summary = await generateDemoVenue({
  outDir: inputs,
  fills: 3_000,
  seed: 11,
  protocolV2: true,
  onLog: (event, address, _log, at) => {
    if (event !== null && (event.kind >= KIND.v2TransferSingle || event.kind === KIND.ctfSplit))
      events.push({ event: structuredClone(event), address, block: at.blockNumber });
  },
});
const era = summary.protocolV2!;
const config = join(dir, 'config.json');
// Limits lifted: the test reads every era wallet and market in turn, well past a key's 600 requests a minute.
writeFileSync(config, JSON.stringify({ addresses: { priceFeeds: DEMO_PRICE_FEEDS }, rateLimits: false }));
const fold = (name: string, workers: number) => {
  const data = join(dir, name);
  mkdirSync(data);
  copyFileSync(config, join(data, 'config.json'));
  const capture = join(inputs, 'capture.ndjson');
  const metadata = join(inputs, 'markets.json');
  const ingest = runTally([
    'ingest',
    '--data',
    data,
    '--capture',
    capture,
    '--metadata',
    metadata,
    '--workers',
    `${workers}`,
  ]);
  return { data, ingest };
};
const one = fold('one', 1);
const three = fold('three', 3);
const key = await createKey(three.data);
const server = await startServer({ data: three.data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const get = apiClient(server.port, key);

t.test('default: the era writes its kinds', async (t) => {
  t.equal(one.ingest.code, 0, one.ingest.stderr);
  t.equal(three.ingest.code, 0, three.ingest.stderr);
  for (const name of [
    'v2TransferSingle',
    'v3OrderFilled',
    'v3OrdersMatched',
    'v3FeeCharged',
    'v2PositionsSplit',
    'v2PositionRedeemed',
    'v2ConditionResolved',
    'v2ResultReported',
    'comboConditionPrepared',
    'comboCompressed',
    'comboWrapped',
    'comboUnwrapped',
    'v2PositionMigrated',
    'v2MigrationConditionRegistered',
    'v2AutoRedemption',
    'routerPositionRedeemed',
    'requestReported',
  ])
    t.ok(summary.events[name]! > 0, `${name} x${summary.events[name]}`);
  t.ok(era.combos >= 4 && era.markets >= 4 && era.migratedMarkets === 1, JSON.stringify({ ...era, wallets: null }));
});

t.test('default: money is conserved for every era wallet, to the micro-dollar', async (t) => {
  // Paid: a BUY's usd plus its fee, a CTF split's collateral; received: redemption payouts (the era never sells).
  const flows = new Map<string, number>();
  const add = (wallet: string, micros: number) => flows.set(wallet, (flows.get(wallet) ?? 0) + micros);
  const autoRedeemed: number[] = [];
  for (const { event } of events) {
    if (event.kind === KIND.v3OrderFilled) add(event.maker, -(event.makerAmountFilled + event.fee));
    else if (event.kind === KIND.ctfSplit) add(event.stakeholder, -event.amount);
    else if (event.kind === KIND.v2PositionRedeemed && event.recipient !== A.autoRedeemer)
      add(event.recipient, event.payout);
    else if (event.kind === KIND.v2AutoRedemption) {
      add(event.from, event.payout);
      autoRedeemed.push(event.payout);
    }
  }
  t.ok(autoRedeemed.length > 0, 'some redemptions went through the AutoRedeemer');
  let wallets = 0;
  for (const wallet of era.wallets) {
    const { body } = await get(`/v1/wallets/${wallet}/positions`);
    if (body.positions.length === 0) continue;
    wallets++;
    let micros = 0;
    for (const row of body.positions) micros += Math.round(row.realizedPnl * 1e6) - Math.round(row.costBasis * 1e6);
    t.equal(micros, flows.get(wallet) ?? 0, `${wallet}: realized PnL less remaining basis = received less paid`);
    t.notOk(
      body.positions.some((row: { partialHistory: boolean; shares: number }) => row.partialHistory || row.shares < 0),
      `${wallet}: the whole history was seen, no negative balance`,
    );
  }
  t.ok(wallets >= era.wallets.length / 2, `${wallets} wallets hold positions`);
});

t.test('default: V2 rows carry ComboExtras in every form; combos their legs', async (t) => {
  const comboRows = new Map<string, any>();
  let combos = 0;
  let legs = 0;
  for (const wallet of era.wallets) {
    const raw = await get(`/v1/wallets/${wallet}/positions`);
    const open = await get(`/v1/wallets/${wallet}/positions?status=open&limit=2500`);
    const closed = await get(`/v1/wallets/${wallet}/positions?status=closed&limit=2500`);
    t.same(answerProblems(RawPositionsAnswer, raw.body), [], `${wallet} raw`);
    t.same(answerProblems(OpenPositionsAnswer, open.body), [], `${wallet} open`);
    t.same(answerProblems(ClosedPositionsAnswer, closed.body), [], `${wallet} closed`);
    for (const row of [...raw.body.positions, ...open.body.rows, ...closed.body.rows]) {
      if (row.ledger !== 'v2') {
        t.notOk('comboStatus' in row, 'a CTF row carries no ComboExtras');
        continue;
      }
      for (const field of ['moduleId', 'v2ConditionId', 'comboStatus', 'legsTotal', 'legsResolved', 'legsPending'])
        t.ok(field in row, `${field} on a V2 row`);
      t.equal(row.legsResolved + row.legsPending, row.legsTotal);
      if (row.moduleId === 3) {
        combos++;
        legs += row.legs.length;
        t.equal(row.legs.length, row.legsTotal);
        comboRows.set(row.conditionId, row);
      }
    }
  }
  t.ok(combos > 0 && legs >= combos, `${combos} combo rows, ${legs} legs`);
  // The market route (issue 25's market page) lists a combo's legs as its positions' rows do.
  for (const [conditionId, row] of comboRows) {
    const market = await get(`/v1/markets/${conditionId}`);
    t.same(answerProblems(MarketAnswer, market.body), [], `${conditionId}: the market answer`);
    const expected = [];
    for (const leg of row.legs) {
      const legMarket = await get(`/v1/markets/${leg.conditionId}`);
      expected.push({
        positionId: leg.positionId,
        conditionId: leg.conditionId,
        outcomeIndex: leg.outcomeIndex,
        question: legMarket.status === 200 ? legMarket.body.market.question : null,
        outcome: leg.outcome,
        settle: leg.settle,
      });
    }
    t.same(market.body.legs, expected, `${conditionId}: the legs as the rows give them, with their questions`);
    t.equal(market.body.resolved, row.comboStatus.startsWith('RESOLVED'), `${conditionId}: resolved as the rows say`);
  }
});

t.test('behavior: no venue contract is a wallet in any answer', async (t) => {
  const venue = new Set([...clobVenueContracts(A), ...protocolV2Contracts(A)]);
  const scan = (label: string, value: unknown) => {
    const text = JSON.stringify(value);
    const found = [...venue].filter((address) => text.includes(address));
    t.same(found, [], `${label}: no venue address`);
  };
  for (const address of venue) {
    t.same((await get(`/v1/wallets/${address}/positions`)).body.positions, [], `${address}: no position`);
    t.same((await get(`/v1/wallets/${address}/trades`)).body.trades, [], `${address}: no trade`);
  }
  for (const period of ['1d', '7d', '30d', 'all'])
    for (const sort of ['totalPnl', 'realizedPnl', 'volume', 'roi']) {
      const board = await get(`/v1/leaderboard?period=${period}&sort=${sort}&limit=100`);
      t.equal(board.status, 200, `board ${period} ${sort}`);
      t.ok(board.body.rows.length > 0, `board ${period} ${sort} has rows`);
      scan(`board ${period} ${sort}`, board.body);
    }
  for (const path of ['/v1/wallets/tags', '/v1/events/heat']) {
    const answer = await get(path);
    t.equal(answer.status, 200, path);
    scan(path, answer.body);
  }
  for (const address of venue) {
    const { row } = (await get(`/v1/wallets/${address}/stats`)).body;
    t.match(row, { fills: 0, volume: 0, marketsTraded: 0, totalPnl: 0 }, `${address}: an empty stats row`);
  }
  const metadata = JSON.parse(readFileSync(join(inputs, 'markets.json'), 'utf8')) as Array<Record<string, unknown>>;
  const v2Markets = metadata.filter((market) => market.version === 'v2');
  t.ok(v2Markets.length >= 4, `${v2Markets.length} native V2 markets in markets.json`);
  for (const market of v2Markets) {
    const condition =
      '0x' +
      BigInt(JSON.parse(market.positionIds as string)[0])
        .toString(16)
        .padStart(64, '0')
        .slice(0, 62);
    const traders = await get(`/v1/markets/${condition}/traders`);
    t.equal(traders.status, 200, `${condition} traders`);
    t.same(answerProblems(MarketTradersAnswer, traders.body), []);
    scan(`${condition} traders`, traders.body);
    scan(`${condition} holders`, (await get(`/v1/markets/${condition}/holder-lines`)).body);
    scan(`${condition} top traders`, (await get(`/v1/markets/${condition}/top-traders`)).body);
    scan(`${condition} trades`, (await get(`/v1/markets/${condition}/trades`)).body);
  }
});

t.test('default: V2 rounds take their strike and close from the reporter, and resolve as those imply', async (t) => {
  const { body } = await get('/v1/crypto/strikes?limit=1000');
  const reported = body.rows.filter((row: { source: string }) => row.source === 'reporter');
  // A legacy round of the same asset, length and start is the same candle: the report is its best source too.
  const native = reported.filter((row: { conditionId: string }) => row.conditionId.length === 64);
  t.ok(native.length >= 4, `${native.length} reported V2 rounds of ${reported.length} reported`);
  for (const row of reported) {
    t.ok(row.strike > 0 && row.close > 0, `${row.eventSlug}: strike ${row.strike}, close ${row.close}`);
    t.equal(row.outcome, row.close >= row.strike ? 'Up' : 'Down');
    if (row.resolution !== null) t.equal(row.resolution, row.outcome, `${row.eventSlug}: resolved as reported`);
  }
});

t.test('behavior: deterministic: 1 and 3 workers fold the same bytes, and verify agrees', async (t) => {
  t.equal(await stateDigest(join(one.data, 'state')), await stateDigest(join(three.data, 'state')));
  const verify = runTally(['verify', '--data', one.data]);
  t.equal(verify.code, 0, verify.stdout + verify.stderr);
  t.match(verify.stdout, /^verify: ok, \d+ blocks/);
});

t.test('behavior: replay to a block in the middle of the era answers as a fold stopped there', async (t) => {
  const middle = events[Math.floor(events.length / 2)]!.block;
  // A fold of the capture cut after that block...
  const cut = join(dir, 'cut.ndjson');
  const lines = readFileSync(join(inputs, 'capture.ndjson'), 'utf8').split('\n').filter(Boolean);
  writeFileSync(cut, lines.filter((line) => parseInt(JSON.parse(line).blockNumber, 16) <= middle).join('\n') + '\n');
  const stopped = join(dir, 'stopped');
  mkdirSync(stopped);
  copyFileSync(config, join(stopped, 'config.json'));
  const metadata = join(inputs, 'markets.json');
  t.equal(runTally(['ingest', '--data', stopped, '--capture', cut, '--metadata', metadata]).code, 0);
  // ...and a replay of the whole log to it: every era wallet's positions, byte for byte.
  const replayed = join(dir, 'replayed');
  const replay = runTally(['replay', '--data', three.data, '--to-block', String(middle), '--out', replayed]);
  t.equal(replay.code, 0, replay.stderr);
  const answersOf = async (data: string) => {
    const apiKey = await createKey(data);
    const served = await startServer({ data, host: '127.0.0.1', port: 0 });
    try {
      const read = apiClient(served.port, apiKey);
      const texts: string[] = [];
      for (const wallet of era.wallets)
        texts.push(JSON.stringify((await read(`/v1/wallets/${wallet}/positions`)).body));
      return texts;
    } finally {
      served.closeAll();
    }
  };
  const [a, b] = [await answersOf(stopped), await answersOf(replayed)];
  t.ok(
    a.some((text) => text.includes('"ledger":"v2"')),
    'V2 positions exist at that block',
  );
  t.same(b, a);
});
