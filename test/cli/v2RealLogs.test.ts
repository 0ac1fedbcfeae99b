// The real 2026 logs of test/fixtures/realdata/v2_logs_2026.json through ingest and HTTP: each CLOB V2 OrderFilled
// folds to the side, shares, price and fee its source gives (the venue's Data API row or a second decoder), and
// the collateral adapters' merge, conversion and batch transfer give the adapters no position, trade, holder or
// board row. The capture adds what those logs need: the merged condition's preparation and the converted
// neg-risk market with 11 questions (the conversion's index set is bit 10).
import t from 'tap';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KIND } from '../../engine/chain/chainEvent.js';
import { POLYGON_ADDRESSES as A } from '../../engine/chain/venueAddresses.js';
import { startServer } from '../../cli/commands/serveCommand.js';
import { createEventCapture } from '../fixtures/eventCapture.js';
import { runTally } from '../fixtures/runTally.js';
import { createKey } from '../fixtures/apiKey.js';

interface Entry {
  log: { topics: string[]; blockNumber: string; data: string; transactionHash: string } & Record<string, string>;
  expect: Record<string, unknown>;
}
const entries = (
  JSON.parse(readFileSync(new URL('../fixtures/realdata/v2_logs_2026.json', import.meta.url), 'utf8')) as {
    entries: Entry[];
  }
).entries;
const ADAPTERS = [
  A.ctfCollateralAdapter,
  A.ctfCollateralAdapter2,
  A.negRiskCollateralAdapter,
  A.negRiskCollateralAdapter2,
];
const MERGED = '0x2c1e877e19fe8ebc146e5260c33c9e1eaffd8752f4c3398b49345fbd58fa0e99';
const NEG_RISK_MARKET = '0xc93c202f8849d124e5929d3ef5378d9bd7fe1612b8a30c625c6576b0785adf00';
const FIRST_BLOCK = Math.min(...entries.map((e) => Number(e.log.blockNumber)));
const FIRST_TS = Number(entries.find((e) => Number(e.log.blockNumber) === FIRST_BLOCK)!.log.blockTimestamp);

const dir = mkdtempSync(join(tmpdir(), 'tally-v2-real-'));
const setup = createEventCapture();
setup.add(FIRST_BLOCK - 1, FIRST_TS - 2, 'setup', A.ctf, {
  kind: KIND.conditionPreparation,
  conditionId: MERGED,
  oracle: '0x' + '65'.repeat(20),
  questionId: '0x' + '01'.repeat(32),
  outcomeSlotCount: 2,
});
setup.add(FIRST_BLOCK - 1, FIRST_TS - 2, 'setup', A.negRiskAdapter, {
  kind: KIND.marketPrepared,
  marketId: NEG_RISK_MARKET,
  oracle: '0x' + '71'.repeat(20),
  feeBips: 0,
  data: '0x',
});
for (let index = 0; index < 11; index++)
  setup.add(FIRST_BLOCK - 1, FIRST_TS - 2, 'setup', A.negRiskAdapter, {
    kind: KIND.questionPrepared,
    marketId: NEG_RISK_MARKET,
    questionId: NEG_RISK_MARKET.slice(0, 64) + index.toString(16).padStart(2, '0'),
    index,
    data: '0x',
  });
// The batch transfer's source gives no place or time: it takes index 0 and a time between its known neighbours.
const known: Array<[number, number]> = entries
  .filter((e) => e.log.blockTimestamp)
  .map((e) => [Number(e.log.blockNumber), Number(e.log.blockTimestamp)] as [number, number]);
const timeOf = (block: number) => {
  const before = known.filter(([b]) => b < block).sort((x, y) => y[0]! - x[0]!)[0]!;
  const after = known.filter(([b]) => b > block).sort((x, y) => x[0]! - y[0]!)[0]!;
  return Math.round(before[1]! + ((after[1]! - before[1]!) * (block - before[0]!)) / (after[0]! - before[0]!));
};
const real = entries.map(({ log }) => ({
  ...log,
  blockHash: log.blockHash ?? '0x' + Number(log.blockNumber).toString(16).padStart(64, '0'),
  blockTimestamp: log.blockTimestamp ?? '0x' + timeOf(Number(log.blockNumber)).toString(16),
  transactionIndex: log.transactionIndex ?? '0x0',
  logIndex: log.logIndex ?? '0x0',
}));
real.sort((a, b) => Number(a.blockNumber) - Number(b.blockNumber) || Number(a.logIndex) - Number(b.logIndex));
const capture = setup.write(join(dir, 'capture.ndjson'));
writeFileSync(capture, readFileSync(capture, 'utf8') + real.map((l) => JSON.stringify(l)).join('\n') + '\n');

const data = join(dir, 'data');
const ingest = runTally(['ingest', '--data', data, '--capture', capture]);
const key = await createKey(data);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const get = async (path: string) => {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    headers: { authorization: `Bearer ${key}`, connection: 'close' },
  });
  return (await response.json()) as any;
};

t.test('default: every V2 fill folds to the side, shares, price and fee its source gives', async (t) => {
  t.equal(ingest.code, 0, ingest.stderr);
  const fills = entries.filter((e) => String(e.expect.event).startsWith('OrderFilled'));
  t.equal(fills.length, 4);
  for (const { log, expect } of fills) {
    const maker = '0x' + log.topics[2]!.slice(26);
    const { trades } = await get(`/v1/wallets/${maker}/trades`);
    const row = trades.find(
      (r: { tx: string; logIndex: number }) => r.tx === log.transactionHash && r.logIndex === Number(log.logIndex),
    );
    t.match(
      row,
      {
        wallet: maker,
        side: String(expect.side).split(' ')[0],
        size: expect.shares,
        price: expect.price,
        fee: expect.fee,
        feeUnit: 'usd',
        exchange: 'ctf-v2',
        role: log.topics[3] === '0x' + '0'.repeat(24) + A.ctfExchangeV2.slice(2) ? 'taker' : 'maker',
      },
      `${maker} at ${log.logIndex}`,
    );
  }
  // The taker's SELL: receives 2.3552 - 0.01318 = 2.34202 (docs/design.md 2), its position's fee is the fill's.
  const taker = await get('/v1/wallets/0x686024b5c1fcc10eb86b8d551fae78488b1b6279/positions');
  t.match(
    taker.positions.find((p: { soldShares: number }) => p.soldShares > 0),
    { soldUsd: 2.3552, fees: 0.01318 },
  );
});

t.test('behavior: the adapters merge, convert and receive tokens, and are never a wallet', async (t) => {
  const batchFrom = '0x41e7aa1b047f13ad96f26ca49602fb403c90b78d';
  t.same(
    (await get(`/v1/wallets/${batchFrom}/positions`)).positions,
    [],
    'the batch transfer to an adapter is plumbing',
  );
  for (const adapter of ADAPTERS) {
    t.same((await get(`/v1/wallets/${adapter}/positions`)).positions, [], `${adapter}: no position`);
    t.same((await get(`/v1/wallets/${adapter}/trades`)).trades, [], `${adapter}: no trade`);
  }
  const answers = [
    await get(`/v1/markets/${MERGED}/traders`),
    await get(`/v1/markets/${MERGED}/holder-lines`),
    await get('/v1/leaderboard'),
  ];
  const text = JSON.stringify(answers);
  for (const adapter of ADAPTERS) t.notOk(text.includes(adapter), `${adapter}: in no traders, holders or board row`);
  t.equal(answers[0].traders.length, 0, 'nobody traded the merged condition here');
});
