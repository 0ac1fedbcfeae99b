// CLOB V2 matches that mint or merge through a collateral adapter (docs/design.md 2, docs/venue.md 2.9), through ingest
// and HTTP: A buys 100 YES at 0.60 (maker, no fee) and B 100 NO at 0.40 (taker, fee 0.80) while the first-generation
// CTF adapter splits 100; later A sells 50 YES at 0.65 and B 50 NO at 0.35 (fee 0.20) while the second-generation
// adapter merges 50. Positions are exact to the micro-dollar, and neither adapter is a wallet in any answer.
import t from 'tap';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXCHANGE, KIND } from '../../engine/chain/chainEvent.js';
import { outcomeTokenIds } from '../../engine/chain/positionIds.js';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { POLYGON_ADDRESSES as A, ZERO_ADDRESS } from '../../engine/chain/venueAddresses.js';
import { startServer } from '../../cli/commands/serveCommand.js';
import { createEventCapture, type EventFields } from '../fixtures/eventCapture.js';
import { runTally } from '../fixtures/runTally.js';
import { createKey } from '../fixtures/apiKey.js';

const COND = '0x' + 'c7'.repeat(32);
const [YES, NO] = outcomeTokenIds(COND, A.usdc) as [string, string];
const ALICE = '0x' + 'a1'.repeat(20);
const BOB = '0x' + 'b2'.repeat(20);
const FEES = '0x115f48dc2a731aa16251c6d6e1befc42f92accc9';
const ADAPTERS = [A.ctfCollateralAdapter, A.ctfCollateralAdapter2];
const M = 1_000_000;
const T0 = 1_780_000_000;
const ZERO_ID = '0x' + '0'.repeat(64);

const capture = createEventCapture();
capture.add(100, T0, 'prepare', A.ctf, {
  kind: KIND.conditionPreparation,
  conditionId: COND,
  oracle: '0x' + '65'.repeat(20),
  questionId: '0x' + '01'.repeat(32),
  outcomeSlotCount: 2,
});
const split = { collateral: A.usdc, parentCollectionId: ZERO_ID, conditionId: COND, partition: [1, 2] };
const single = (operator: string, from: string, to: string, tokenId: string, value: number) =>
  ({ kind: KIND.transferSingle, operator, from, to, tokenId, value }) as const;
const batch = (operator: string, from: string, to: string, value: number) => ({
  kind: KIND.transferBatch as typeof KIND.transferBatch,
  operator,
  from,
  to,
  tokenIds: [YES, NO],
  values: [value, value],
});
const fill = (
  hash: string,
  maker: string,
  taker: string,
  side: number,
  token: string,
  usd: number,
  shares: number,
  fee: number,
) =>
  ({
    kind: KIND.orderFilledV2,
    exchange: EXCHANGE.ctfV2,
    orderHash: '0x' + hash.repeat(32),
    maker,
    taker,
    side,
    tokenId: token,
    makerAmount: side === 0 ? usd : shares,
    takerAmount: side === 0 ? shares : usd,
    fee,
    builder: ZERO_ID,
    metadata: ZERO_ID,
  }) as const;
const X = A.ctfExchangeV2;
// The mint: the adapter splits and hands both sides to the exchange, which delivers them.
const mint: Array<[string, EventFields]> = [
  [A.ctf, { kind: KIND.ctfSplit, stakeholder: ADAPTERS[0]!, ...split, amount: 100 * M }],
  [A.ctf, batch(ADAPTERS[0]!, ZERO_ADDRESS, ADAPTERS[0]!, 100 * M)],
  [A.ctf, batch(ADAPTERS[0]!, ADAPTERS[0]!, X, 100 * M)],
  [A.ctf, single(X, X, ALICE, YES, 100 * M)],
  [A.ctf, single(X, X, BOB, NO, 100 * M)],
  [X, fill('aa', ALICE, BOB, 0, YES, 60 * M, 100 * M, 0)],
  [X, { kind: KIND.feeChargedV2, exchange: EXCHANGE.ctfV2, receiver: FEES, amount: 800_000 }],
  [X, fill('bb', BOB, X, 0, NO, 40 * M, 100 * M, 800_000)],
  [
    X,
    {
      kind: KIND.ordersMatchedV2,
      exchange: EXCHANGE.ctfV2,
      takerOrderHash: '0x' + 'bb'.repeat(32),
      takerOrderMaker: BOB,
      side: 0,
      tokenId: NO,
      makerAmount: 40 * M,
      takerAmount: 100 * M,
    },
  ],
];
for (const [address, event] of mint) capture.add(101, T0 + 60, 'mint', address, event);
// The merge: both sides go to the exchange, then to the adapter, which merges and burns them.
const merge: Array<[string, EventFields]> = [
  [A.ctf, single(X, ALICE, X, YES, 50 * M)],
  [A.ctf, single(X, BOB, X, NO, 50 * M)],
  [A.ctf, batch(X, X, ADAPTERS[1]!, 50 * M)],
  [A.ctf, { kind: KIND.ctfMerge, stakeholder: ADAPTERS[1]!, ...split, amount: 50 * M }],
  [A.ctf, batch(ADAPTERS[1]!, ADAPTERS[1]!, ZERO_ADDRESS, 50 * M)],
  [X, fill('cc', ALICE, BOB, 1, YES, 32.5 * M, 50 * M, 0)],
  [X, { kind: KIND.feeChargedV2, exchange: EXCHANGE.ctfV2, receiver: FEES, amount: 200_000 }],
  [X, fill('dd', BOB, X, 1, NO, 17.5 * M, 50 * M, 200_000)],
  [
    X,
    {
      kind: KIND.ordersMatchedV2,
      exchange: EXCHANGE.ctfV2,
      takerOrderHash: '0x' + 'dd'.repeat(32),
      takerOrderMaker: BOB,
      side: 1,
      tokenId: NO,
      makerAmount: 50 * M,
      takerAmount: 17.5 * M,
    },
  ],
];
for (const [address, event] of merge) capture.add(102, T0 + 120, 'merge', address, event);

const dir = mkdtempSync(join(tmpdir(), 'tally-v2-adapter-'));
const data = join(dir, 'data');
const ingest = runTally(['ingest', '--data', data, '--capture', capture.write(join(dir, 'capture.ndjson'))]);
const key = await createKey(data);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const get = async (path: string) => {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    headers: { authorization: `Bearer ${key}`, connection: 'close' },
  });
  return { status: response.status, body: (await response.json()) as any };
};

t.test('default: the two buyers hold exactly what they paid, fees included', async (t) => {
  t.equal(ingest.code, 0, ingest.stderr);
  const row = async (wallet: string, token: string) =>
    (await get(`/v1/wallets/${wallet}/positions`)).body.positions.find(
      (r: { tokenId: string }) => r.tokenId === tokenIdToDecimal(token),
    );
  // Alice: 100 at 0.60, 50 sold at 0.65 -> 50 left at 30, realized 32.5 - 30 = 2.5.
  t.match(await row(ALICE, YES), { shares: 50, costBasis: 30, realizedPnl: 2.5, boughtUsd: 60, fees: 0 });
  // Bob: 100 at 0.40 + 0.80 fee = 40.80; 50 sold for 17.50 - 0.20 = 17.30 against 20.40 -> realized -3.10.
  t.match(await row(BOB, NO), { shares: 50, costBasis: 20.4, realizedPnl: -3.1, boughtUsd: 40, fees: 1 });
});

t.test('behavior: no adapter is a wallet in any answer', async (t) => {
  for (const adapter of ADAPTERS) {
    t.same((await get(`/v1/wallets/${adapter}/positions`)).body.positions, [], `${adapter}: no position`);
    t.same((await get(`/v1/wallets/${adapter}/trades`)).body.trades, [], `${adapter}: no trade`);
  }
  const expectNone = (label: string, value: unknown) => {
    const text = JSON.stringify(value);
    for (const adapter of ADAPTERS) t.notOk(text.includes(adapter), `${label}: no adapter`);
  };
  const walletsOf = (rows: Array<{ wallet: string }>) => rows.map((r) => r.wallet).sort();
  const traders = (await get(`/v1/markets/${COND}/traders`)).body;
  t.same(walletsOf(traders.traders), [ALICE, BOB], 'traders: the two buyers');
  const top = (await get(`/v1/markets/${COND}/top-traders`)).body;
  t.same(walletsOf(top.traders), [ALICE, BOB], 'top traders: the two buyers');
  const holders = (await get(`/v1/markets/${COND}/holder-lines`)).body;
  t.ok(JSON.stringify(holders).includes(ALICE), 'holders: the buyers are there');
  const board = (await get('/v1/leaderboard')).body;
  t.same(walletsOf(board.rows), [ALICE, BOB], 'board: two wallets');
  const fills = (await get(`/v1/fills?markets=${COND}&from=${T0}&to=${T0 + 3600}`)).body;
  const trades = (await get(`/v1/markets/${COND}/trades`)).body;
  for (const [label, value] of Object.entries({ traders, top, holders, board, fills, trades }))
    expectNone(label, value);
});
