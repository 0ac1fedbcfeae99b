// The Protocol V2 ledger through ingest and HTTP (DESIGN 10), hand-worked to the micro-dollar. A native V2 binary
// market A (module 1) and B, and a combo of YES(A) and YES(B):
// - block 200: Alice splits 100 pUSD on A through the Router: 100 YES and 100 NO at 0.50 each.
// - block 201: on ExchangeV3 Bob buys Alice's 100 NO at 0.30; Alice, the taker, pays a 0.30 fee.
// - block 202: Alice sends Carol 40 YES (basis 20 goes with them).
// - block 203: A resolves YES (ConditionResolved, [1e6, 0]).
// - block 204: Alice redeems her 60 YES through the Router for 60; block 205: Carol's 40 are auto-redeemed.
// - block 206: Dave splits 10 pUSD on the combo, sells its 10 NO to Erin at 0.80 on ExchangeV3; B resolves NO, so
//   the combo's YES pays 0: Dave redeems his 10 YES for 0 and Erin her 10 NO for 10.
import t from 'tap';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KIND } from '../../engine/chain/chainEvent.js';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { v2IdWord } from '../../engine/chain/v2ChainEvent.js';
import { canonicalLegs, comboConditionId, v2PositionId } from '../../engine/chain/v2PositionIds.js';
import { POLYGON_ADDRESSES as A, ZERO_ADDRESS } from '../../engine/chain/venueAddresses.js';
import { startServer } from '../../cli/commands/serveCommand.js';
import { createEventCapture, type EventFields } from '../fixtures/eventCapture.js';
import { runTally } from '../fixtures/runTally.js';

const M = 1_000_000;
const T0 = 1_785_000_000;
const ZERO_WORD = '0x' + '0'.repeat(64);
const COND_A = '0x01' + 'a1'.repeat(16) + '0'.repeat(28);
const COND_B = '0x01' + 'b2'.repeat(16) + '0'.repeat(28);
const [YES_A, NO_A] = [v2PositionId(COND_A, 0), v2PositionId(COND_A, 1)];
const YES_B = v2PositionId(COND_B, 0);
const LEGS = canonicalLegs([YES_A, YES_B]);
const COMBO = comboConditionId(LEGS);
const [COMBO_YES, COMBO_NO] = [v2PositionId(COMBO, 0), v2PositionId(COMBO, 1)];
const ALICE = '0x' + 'a1'.repeat(20);
const BOB = '0x' + 'b2'.repeat(20);
const CAROL = '0x' + 'c3'.repeat(20);
const DAVE = '0x' + 'd4'.repeat(20);
const ERIN = '0x' + 'e5'.repeat(20);
const PM = A.positionManager;
const X = A.exchangeV3;
const ROUTER = A.v2Router;
const AR = A.autoRedeemer;
const STACK = [PM, X, ROUTER, AR, A.binaryModule, A.negRiskModule, A.combinatorialModule];

const capture = createEventCapture();
const add = (block: number, tx: string, address: string, event: Record<string, unknown>) =>
  capture.add(block, T0 + (block - 200) * 60, tx, address, { ...event, emitter: address } as unknown as EventFields);
const mint = (module: string, to: string, id: string, amount: number) => ({
  kind: KIND.v2TransferSingle,
  operator: module,
  from: ZERO_ADDRESS,
  to,
  id,
  amount,
});
const move = (operator: string, from: string, to: string, id: string, amount: number) => ({
  kind: KIND.v2TransferSingle,
  operator,
  from,
  to,
  id,
  amount,
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
) => ({
  kind: KIND.v3OrderFilled,
  orderHash: '0x' + hash.repeat(32),
  maker,
  taker,
  side,
  tokenId: token,
  makerAmountFilled: side === 0 ? usd : shares,
  takerAmountFilled: side === 0 ? shares : usd,
  fee,
  builder: ZERO_WORD,
  metadata: ZERO_WORD,
});
const sale = (
  block: number,
  tx: string,
  seller: string,
  buyer: string,
  token: string,
  usd: number,
  shares: number,
  fee: number,
) => {
  add(block, tx, PM, move(X, seller, X, token, shares));
  add(block, tx, PM, move(X, X, buyer, token, shares));
  add(block, tx, X, fill(tx.slice(0, 2), buyer, seller, 0, token, usd, shares, 0));
  add(block, tx, X, { kind: KIND.v3FeeCharged, receiver: '0x' + 'fe'.repeat(20), amount: fee });
  add(block, tx, X, fill(tx.slice(2, 4), seller, X, 1, token, usd, shares, fee));
  add(block, tx, X, {
    kind: KIND.v3OrdersMatched,
    takerOrderHash: '0x' + tx.slice(2, 4).repeat(32),
    takerOrderMaker: seller,
    side: 1,
    tokenId: token,
    makerAmountFilled: shares,
    takerAmountFilled: usd,
  });
};

add(200, 'a1a1', A.binaryModule, {
  kind: KIND.v2PositionsSplit,
  initiator: ROUTER,
  conditionId: v2IdWord(COND_A),
  recipient0: ALICE,
  recipient1: ALICE,
  amount: 100 * M,
});
add(200, 'a1a1', PM, mint(A.binaryModule, ALICE, YES_A, 100 * M));
add(200, 'a1a1', PM, mint(A.binaryModule, ALICE, NO_A, 100 * M));
sale(201, 'b1b2', ALICE, BOB, NO_A, 30 * M, 100 * M, 300_000);
add(202, 'c1c1', PM, move(ALICE, ALICE, CAROL, YES_A, 40 * M));
add(203, 'd1d1', A.binaryModule, {
  kind: KIND.v2ResultReported,
  resolver: '0x' + '0a'.repeat(20),
  conditionId: v2IdWord(COND_A),
  result: [M, 0],
});
add(203, 'd1d1', A.binaryModule, { kind: KIND.v2ConditionResolved, conditionId: v2IdWord(COND_A), result: [M, 0] });
const redeem = (
  block: number,
  tx: string,
  holder: string,
  operator: string,
  recipient: string,
  token: string,
  amount: number,
  payout: number,
) => {
  add(block, tx, PM, move(operator, holder, A.binaryModule, token, amount));
  add(block, tx, PM, move(A.binaryModule, A.binaryModule, ZERO_ADDRESS, token, amount));
  add(block, tx, A.binaryModule, {
    kind: KIND.v2PositionRedeemed,
    initiator: operator,
    positionId: token,
    recipient,
    amount,
    payout,
  });
};
redeem(204, 'e1e1', ALICE, ROUTER, ALICE, YES_A, 60 * M, 60 * M);
redeem(205, 'f1f1', CAROL, AR, AR, YES_A, 40 * M, 40 * M);
add(205, 'f1f1', AR, { kind: KIND.v2AutoRedemption, from: CAROL, positionId: YES_A, payout: 40 * M });
add(206, '0101', A.combinatorialModule, {
  kind: KIND.comboConditionPrepared,
  conditionId: v2IdWord(COMBO),
  legs: LEGS,
});
add(206, '0101', A.combinatorialModule, {
  kind: KIND.v2PositionsSplit,
  initiator: ROUTER,
  conditionId: v2IdWord(COMBO),
  recipient0: DAVE,
  recipient1: DAVE,
  amount: 10 * M,
});
add(206, '0101', PM, mint(A.combinatorialModule, DAVE, COMBO_YES, 10 * M));
add(206, '0101', PM, mint(A.combinatorialModule, DAVE, COMBO_NO, 10 * M));
sale(207, '0203', DAVE, ERIN, COMBO_NO, 8 * M, 10 * M, 0);
add(208, '0404', A.binaryModule, { kind: KIND.v2ConditionResolved, conditionId: v2IdWord(COND_B), result: [0, M] });
redeem(209, '0505', DAVE, ROUTER, DAVE, COMBO_YES, 10 * M, 0);
redeem(209, '0606', ERIN, ROUTER, ERIN, COMBO_NO, 10 * M, 10 * M);

const dir = mkdtempSync(join(tmpdir(), 'tally-v2-ledger-'));
const data = join(dir, 'data');
const ingest = runTally(['ingest', '--data', data, '--capture', capture.write(join(dir, 'capture.ndjson'))]);
const key = runTally(['keys', 'create', '--data', data]).stdout.trim().split('\n').at(-1)!;
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const get = async (path: string) => {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    headers: { authorization: `Bearer ${key}`, connection: 'close' },
  });
  return { status: response.status, body: (await response.json()) as any };
};
const row = async (wallet: string, token: string) =>
  (await get(`/v1/wallets/${wallet}/positions`)).body.positions.find(
    (r: { tokenId: string }) => r.tokenId === tokenIdToDecimal(token),
  );

t.test('default: a V2 market: split, V3 sale, transfer, resolution, redemptions, exact', async (t) => {
  t.equal(ingest.code, 0, ingest.stderr);
  // Alice: 100 NO at 50 sold for 30 - 0.30 fee -> realized -20.30; 100 YES at 50, 40 sent on (basis 20), 60 redeemed
  // for 60 against 30 -> +30.
  t.match(await row(ALICE, NO_A), { shares: 0, costBasis: 0, realizedPnl: -20.3, fees: 0.3 });
  t.match(await row(ALICE, YES_A), { shares: 0, costBasis: 0, realizedPnl: 30 });
  // Bob: 100 NO for 30, held: lost at the resolution.
  t.match(await row(BOB, NO_A), { shares: 100, costBasis: 30, boughtUsd: 30 });
  // Carol: 40 YES with basis 20, auto-redeemed for 40 -> +20, credited to her, not to the AutoRedeemer.
  t.match(await row(CAROL, YES_A), { shares: 0, costBasis: 0, realizedPnl: 20 });
});

t.test('default: a combo: split, V3 sale, a losing leg, redemptions at the module payout', async (t) => {
  // Dave: 10 YES and 10 NO at 5 each; the NO sold for 8 -> +3; the YES redeemed for 0 -> -5.
  t.match(await row(DAVE, COMBO_NO), { shares: 0, realizedPnl: 3 });
  t.match(await row(DAVE, COMBO_YES), { shares: 0, realizedPnl: -5 });
  // Erin: 10 NO for 8, redeemed for 10 -> +2.
  t.match(await row(ERIN, COMBO_NO), { shares: 0, realizedPnl: 2, boughtUsd: 8 });
});

t.test('behavior: no contract of the V2 stack is a wallet in any answer', async (t) => {
  for (const contract of STACK) {
    t.same((await get(`/v1/wallets/${contract}/positions`)).body.positions, [], `${contract}: no position`);
    t.same((await get(`/v1/wallets/${contract}/trades`)).body.trades, [], `${contract}: no trade`);
  }
  const board = (await get('/v1/leaderboard')).body;
  t.same(board.rows.map((r: { wallet: string }) => r.wallet).sort(), [ALICE, BOB, CAROL, DAVE, ERIN].sort());
  const text = JSON.stringify(board);
  for (const contract of STACK) t.notOk(text.includes(contract), `board: no ${contract}`);
});
