// The Protocol V2 ledger through ingest and HTTP (docs/design.md 10), hand-worked to the micro-dollar. A native V2
// binary market A (module 1) and B, and a combo of YES(A) and YES(B):
// - block 200: Alice splits 100 pUSD on A through the Router: 100 YES and 100 NO at 0.50 each.
// - block 201: on ExchangeV3 Bob buys Alice's 100 NO at 0.30; Alice, the taker, pays a 0.30 fee.
// - block 202: Alice sends Carol 40 YES (basis 20 goes with them).
// - block 203: A resolves YES (ConditionResolved, [1e6, 0]).
// - block 204: Alice redeems her 60 YES through the Router for 60; block 205: Carol's 40 are auto-redeemed.
// - block 206: Dave splits 10 pUSD on the combo, sells its 10 NO to Erin at 0.80 on ExchangeV3; B resolves NO, so
//   the combo's YES pays 0: Dave redeems his 10 YES for 0 and Erin her 10 NO for 10.
// - blocks 210-217, markets C, D, E, F (module 1): Frank splits 20 on YES(C)&YES(D) and C resolves NO while D is open
//   (an early loss), then compresses his NO for 20; Gina splits 30 on E, wraps 30 YES(E) and unwraps 10; Hank
//   splits 40 on YES(D)&YES(E), E resolves 50/50 and D YES (a fractional combo), Hank redeems his YES for 20;
//   Jack splits 10 on YES(D)&YES(F) and compresses his YES once D won (the reduced combo YES(F) carries the basis);
//   Kate splits 50 on a CTF market L and migrates her 50 YES into L's migration condition.
import t from 'tap';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KIND } from '../../engine/chain/chainEvent.js';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { v2IdWord } from '../../engine/chain/v2ChainEvent.js';
import {
  binaryMigrationConditionId,
  canonicalLegs,
  comboConditionId,
  v2PositionId,
} from '../../engine/chain/v2PositionIds.js';
import { outcomeTokenIds } from '../../engine/chain/positionIds.js';
import { POLYGON_ADDRESSES as A, ZERO_ADDRESS } from '../../engine/chain/venueAddresses.js';
import { startServer } from '../../cli/commands/serveCommand.js';
import { createEventCapture, type EventFields } from '../fixtures/eventCapture.js';
import { runTally } from '../fixtures/runTally.js';
import { createKey } from '../fixtures/apiKey.js';

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
  capture.add(block, T0 + (block - 200) * 60, tx, address, {
    ...event,
    // The first ledger's events carry no emitter.
    ...(Number(event.kind) >= KIND.v2TransferSingle ? { emitter: address } : {}),
  } as unknown as EventFields);
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

const cond = (tag: string) => '0x01' + tag.repeat(16) + '0'.repeat(28);
const [COND_C, COND_D, COND_E, COND_F] = ['c3', 'd4', 'e5', 'f6'].map(cond) as [string, string, string, string];
const yesOf = (condition: string) => v2PositionId(condition, 0);
const comboOf = (...legs: string[]) => comboConditionId(canonicalLegs(legs));
const CD = comboOf(yesOf(COND_C), yesOf(COND_D));
const DE = comboOf(yesOf(COND_D), yesOf(COND_E));
const DF = comboOf(yesOf(COND_D), yesOf(COND_F));
const WRAP_E = comboOf(yesOf(COND_E));
const F_ONLY = comboOf(yesOf(COND_F));
const [FRANK, GINA, HANK, JACK, KATE] = ['f1', 'a7', 'b8', 'c9', 'ab'].map((b) => '0x' + b.repeat(20)) as [
  string,
  string,
  string,
  string,
  string,
];
const LEGACY = '0x' + '1e'.repeat(32);
const [CTF_YES, CTF_NO] = outcomeTokenIds(LEGACY, A.usdc) as [string, string];
const MIGRATED = binaryMigrationConditionId(LEGACY);
const C = A.combinatorialModule;
const prepare = (block: number, tx: string, combo: string, legs: string[]) =>
  add(block, tx, C, { kind: KIND.comboConditionPrepared, conditionId: v2IdWord(combo), legs: canonicalLegs(legs) });
const splitOn = (block: number, tx: string, module: string, condition: string, wallet: string, amount: number) =>
  add(block, tx, module, {
    kind: KIND.v2PositionsSplit,
    initiator: ROUTER,
    conditionId: v2IdWord(condition),
    recipient0: wallet,
    recipient1: wallet,
    amount,
  });
const resolve = (block: number, condition: string, result: number[]) =>
  add(block, `r${block}`.padEnd(4, '0'), A.binaryModule, {
    kind: KIND.v2ConditionResolved,
    conditionId: v2IdWord(condition),
    result,
  });
prepare(210, '1010', CD, [yesOf(COND_C), yesOf(COND_D)]);
splitOn(210, '1010', C, CD, FRANK, 20 * M);
resolve(211, COND_C, [0, M]);
add(212, '1212', C, {
  kind: KIND.comboCompressed,
  user: ROUTER,
  oldPositionId: v2PositionId(CD, 1),
  newPositionId: '0'.repeat(64),
  recipient: FRANK,
  amount: 20 * M,
  positionAmount: 0,
  collateralOut: 20 * M,
});
splitOn(212, '1313', A.binaryModule, COND_E, GINA, 30 * M);
prepare(212, '1414', WRAP_E, [yesOf(COND_E)]);
add(212, '1414', C, {
  kind: KIND.comboWrapped,
  user: ROUTER,
  underlyingPositionId: yesOf(COND_E),
  combinatorialPositionId: yesOf(WRAP_E),
  recipient: GINA,
  amount: 30 * M,
});
add(212, '1515', C, {
  kind: KIND.comboUnwrapped,
  user: ROUTER,
  combinatorialPositionId: yesOf(WRAP_E),
  underlyingPositionId: yesOf(COND_E),
  recipient: GINA,
  amount: 10 * M,
});
prepare(213, '1616', DE, [yesOf(COND_D), yesOf(COND_E)]);
splitOn(213, '1616', C, DE, HANK, 40 * M);
prepare(213, '1717', DF, [yesOf(COND_D), yesOf(COND_F)]);
splitOn(213, '1717', C, DF, JACK, 10 * M);
resolve(214, COND_E, [M / 2, M / 2]);
resolve(215, COND_D, [M, 0]);
redeem(216, '1818', HANK, ROUTER, HANK, yesOf(DE), 40 * M, 20 * M);
prepare(216, '1919', F_ONLY, [yesOf(COND_F)]);
add(216, '1919', C, {
  kind: KIND.comboCompressed,
  user: ROUTER,
  oldPositionId: yesOf(DF),
  newPositionId: yesOf(F_ONLY),
  recipient: JACK,
  amount: 10 * M,
  positionAmount: 10 * M,
  collateralOut: 0,
});
add(217, '2020', A.ctf, {
  kind: KIND.conditionPreparation,
  conditionId: LEGACY,
  oracle: '0x' + '65'.repeat(20),
  questionId: '0x' + '02'.repeat(32),
  outcomeSlotCount: 2,
});
add(217, '2121', A.ctf, {
  kind: KIND.ctfSplit,
  stakeholder: KATE,
  collateral: A.usdc,
  parentCollectionId: ZERO_WORD,
  conditionId: LEGACY,
  partition: [1, 2],
  amount: 50 * M,
});
add(217, '2222', A.binaryModule, {
  kind: KIND.v2MigrationConditionRegistered,
  v2ConditionId: v2IdWord(MIGRATED),
  legacyConditionId: LEGACY,
});
add(217, '2323', A.ctf, {
  kind: KIND.transferSingle,
  operator: A.binaryModule,
  from: KATE,
  to: A.binaryModule,
  tokenId: CTF_YES,
  value: 50 * M,
});
add(217, '2323', A.binaryModule, {
  kind: KIND.v2PositionMigrated,
  from: KATE,
  conditionId: v2IdWord(MIGRATED),
  positionId: yesOf(MIGRATED),
  outcomeIndex: 0,
  amount: 50 * M,
});

// A log the stack emits with a topic tally does not know (an upgrade's Upgraded(address)): counted, never dropped.
const UPGRADED = '0xbc7cd75a20ee27fd9adebab32041f755214dbc6bffa90cc0225b39da2e5c2d3b';
add(218, '2424', X, { kind: KIND.unknownTopic, emitter: X, topic0: UPGRADED });
add(218, '2525', A.combinatorialModule, { kind: KIND.unknownTopic, emitter: A.combinatorialModule, topic0: UPGRADED });
// Kate sells 10 of her migrated YES to Nina on ExchangeV3 at 0.70 (basis 5 leaves: realized +2). L is one market on
// both ledgers: its routes, by the legacy id or the migration condition's, show the CTF and the V2 positions.
const NINA = '0x' + 'ef'.repeat(20);
sale(218, 'e5e6', KATE, NINA, yesOf(MIGRATED), 7 * M, 10 * M, 0);

// A neg-risk event (module 2) of two questions and Other: Lara splits 20 on question 1; question 0 resolves YES,
// and the module says the rest derive NO (RemainingConditionsDerivableAsNo), Other included.
const EVENT = '0x02' + '9e'.repeat(16) + '0002' + '0'.repeat(20);
const [Q0, Q1, OTHER] = [0, 1, 2].map((i) => EVENT + i.toString(16).padStart(4, '0')) as [string, string, string];
const LARA = '0x' + 'dd'.repeat(20);
// Mona's event-wide moves on it, at block 219-220: a horizontal split of 10 (10 YES of Q0, Q1 and Other, basis
// 3.333334, 3.333333 and 3.333333: the remainder to the first), a horizontal merge of 4 (each YES sold for its third
// of 4, the odd micro-unit to Q0: realized 0 on each), a split of 12 on Q1, then 9 NO of Q1 converted into 9 YES of
// Q0 and of Other (basis 4.5 shared: 2.25 each).
const MONA = '0x' + 'de'.repeat(20);
const eventMove = (block: number, tx: string, kind: number, amount: number) =>
  add(block, tx, A.negRiskModule, { kind, initiator: ROUTER, eventId: v2IdWord(EVENT), recipient: MONA, amount });
eventMove(219, '2828', KIND.negRiskHorizontalSplit, 10 * M);
eventMove(219, '2929', KIND.negRiskHorizontalMerge, 4 * M);
splitOn(220, '3030', A.negRiskModule, Q1, MONA, 12 * M);
add(220, '3131', A.negRiskModule, {
  kind: KIND.negRiskPositionConverted,
  initiator: MONA,
  eventId: v2IdWord(EVENT),
  recipient: MONA,
  conditionIndex: 1,
  amount: 9 * M,
});
splitOn(221, '2626', A.negRiskModule, Q1, LARA, 20 * M);
add(222, '2727', A.negRiskModule, { kind: KIND.v2ConditionResolved, conditionId: v2IdWord(Q0), result: [M, 0] });
add(222, '2727', A.negRiskModule, { kind: KIND.negRiskRemainingDerivableAsNo, eventId: v2IdWord(EVENT) });

const dir = mkdtempSync(join(tmpdir(), 'tally-v2-ledger-'));
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
const row = async (wallet: string, token: string) =>
  (await get(`/v1/wallets/${wallet}/positions`)).body.positions.find(
    (r: { tokenId: string }) => r.tokenId === tokenIdToDecimal(token),
  );
/** The position's WalletRow, settled: from the open form (held, or resolved and not redeemed) or the closed one. */
const settled = async (wallet: string, token: string) => {
  for (const status of ['open', 'closed']) {
    const found = (await get(`/v1/wallets/${wallet}/positions?status=${status}&limit=1000`)).body.rows.find(
      (r: { tokenId: string }) => r.tokenId === tokenIdToDecimal(token),
    );
    if (found) return found;
  }
  return undefined;
};

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

const ts = (block: number) => T0 + (block - 200) * 60;

t.test('default: an early loss, then a compress that is all cash', async (t) => {
  // Terminal at C's loss (block 211), although D resolved later (YES, block 215).
  const yes = await settled(FRANK, v2PositionId(CD, 0));
  t.match(yes, { shares: 20, costBasis: 10, resolved: true, settle: 0, resolvedAt: ts(211), settledPnl: -10 });
  t.match(yes, { ledger: 'v2', moduleId: 3, v2ConditionId: CD, conditionId: CD, comboStatus: 'RESOLVED_LOSS' });
  t.match(yes, { legsTotal: 2, legsResolved: 2, legsPending: 0, resolvedFactor: 0, legacyConditionId: null });
  t.match(yes.legs, [
    { legIndex: 0, conditionId: COND_C, outcomeIndex: 0, status: 'RESOLVED_LOSS', settle: 0, resolvedAt: ts(211) },
    { legIndex: 1, conditionId: COND_D, outcomeIndex: 0, status: 'RESOLVED_WIN', settle: 1, resolvedAt: ts(215) },
  ]);
  t.equal(yes.legs[0].positionId, tokenIdToDecimal(yesOf(COND_C)));
  // The NO row of a combo whose YES lost is a win; compressed for 20 against a basis of 10.
  const no = await settled(FRANK, v2PositionId(CD, 1));
  t.match(no, { shares: 0, costBasis: 0, realizedPnl: 10, redeemUsd: 20, comboStatus: 'RESOLVED_WIN', settle: 1 });
});

t.test('default: wrap then unwrap carries basis exactly', async (t) => {
  t.match(await row(GINA, yesOf(COND_E)), { shares: 10, costBasis: 5, basisApprox: false, ledger: 'v2' });
  t.match(await row(GINA, yesOf(WRAP_E)), { shares: 20, costBasis: 10, basisApprox: false, moduleId: 3 });
  t.match(await row(GINA, v2PositionId(COND_E, 1)), { shares: 30, costBasis: 15 });
});

t.test('default: a fractional leg gives a fractional combo payout', async (t) => {
  const yes = await settled(HANK, yesOf(DE));
  t.match(yes, { shares: 0, realizedPnl: 0, redeemUsd: 20, comboStatus: 'RESOLVED_PARTIAL', settle: 0.5 });
  t.match(yes, { legsResolved: 2, legsPending: 0, resolvedFactor: 0.5, resolvedAt: ts(215) });
  const no = await settled(HANK, v2PositionId(DE, 1));
  t.match(no, { shares: 40, costBasis: 20, settle: 0.5, settledPnl: 0, comboStatus: 'RESOLVED_PARTIAL' });
  t.match(await settled(GINA, yesOf(WRAP_E)), { settle: 0.5, comboStatus: 'RESOLVED_PARTIAL', resolvedFactor: 0.5 });
});

t.test('default: a compress once a leg won carries the basis to the reduced combo', async (t) => {
  t.match(await row(JACK, yesOf(DF)), { shares: 0, costBasis: 0, realizedPnl: 0 });
  const reduced = await row(JACK, yesOf(F_ONLY));
  t.match(reduced, { shares: 10, costBasis: 5, comboStatus: 'OPEN', legsTotal: 1, legsResolved: 0 });
  t.match(await row(JACK, v2PositionId(DF, 1)), { shares: 10, costBasis: 5, comboStatus: 'PARTIAL', legsResolved: 1 });
});

t.test(
  'default: a CTF position migrated into V2 keeps its basis and history and shows its legacy market',
  async (t) => {
    t.match(await row(KATE, CTF_YES), { shares: 0, costBasis: 0, realizedPnl: 0 });
    const migrated = await row(KATE, yesOf(MIGRATED));
    t.match(migrated, { shares: 40, costBasis: 20, migrated: true, basisApprox: false, ledger: 'v2', moduleId: 1 });
    t.match(migrated, { realizedPnl: 2, soldShares: 10, soldUsd: 7 });
    t.match(migrated, { conditionId: LEGACY, legacyConditionId: LEGACY, v2ConditionId: MIGRATED });
    t.notOk('legs' in migrated, 'legs are for combos only');
    // The split's history came with the shares: the V2 row has the entry, the CTF row keeps none of it.
    t.match(await settled(KATE, yesOf(MIGRATED)), { invested: 25, entryPrice: 0.5, migrated: true, shares: 40 });
    t.match(await settled(KATE, CTF_YES), { invested: 0, shares: 0 });
    t.match(await settled(KATE, CTF_NO), { invested: 25, shares: 50, entryPrice: 0.5 });
  },
);

t.test('default: a migrated market is one market on both ledgers, by either id', async (t) => {
  for (const id of [LEGACY, MIGRATED]) {
    const traders = await get(`/v1/markets/${id}/traders`);
    t.equal(traders.status, 200, `traders by ${id}`);
    t.equal(traders.body.conditionId, LEGACY, 'named by its legacy id');
    t.same(traders.body.traders.map((r: { wallet: string }) => r.wallet).sort(), [KATE, NINA].sort());
    const kate = traders.body.traders.find((r: { wallet: string }) => r.wallet === KATE);
    // Her CTF legs (YES emptied by the migration, NO held) and her V2 YES, each a row; shares by outcome over both.
    t.same(kate.shares, [40, 50]);
    t.match(kate, { realizedPnl: 2 });
    t.match(kate.outcomes, [
      { outcomeIndex: 0, shares: 0 },
      { outcomeIndex: 1, shares: 50 },
      { outcomeIndex: 0, shares: 40, ledger: 'v2', migrated: true, legacyConditionId: LEGACY },
    ]);
    t.notOk('ledger' in kate.outcomes[0], 'a CTF row carries no ComboExtras');
    const trades = await get(`/v1/markets/${id}/trades`);
    t.same(
      trades.body.trades.map((r: { asset: string; conditionId: string }) => [r.asset, r.conditionId]),
      [
        [tokenIdToDecimal(yesOf(MIGRATED)), LEGACY],
        [tokenIdToDecimal(yesOf(MIGRATED)), LEGACY],
      ],
      'the V3 fill of the migrated YES, one row a side',
    );
    const feed = await get(`/v1/fills?markets=${id}&from=${ts(218)}&to=${ts(218) + 60}`);
    t.equal(feed.status, 200);
    t.same(
      feed.body.fills.map((row: number[]) => row[0]),
      trades.body.trades.map(() => 0),
      'the fills feed has them, under its place in the list',
    );
    const counts = await get(`/v1/markets/${id}/trade-counts?wallets=${KATE},${NINA}`);
    t.equal(counts.status, 200);
    t.match(counts.body, { counts: { [KATE]: 1, [NINA]: 1 } });
    const lines = await get(`/v1/markets/${id}/holder-lines`);
    t.equal(lines.status, 200);
    t.match(lines.body.outcomes[0].holders.members, [{ wallet: NINA, shares: 10 }], 'buyers hold the line');
    t.match(
      lines.body.outcomes[0].traders.members.find((m: { wallet: string }) => m.wallet === KATE),
      { shares: 40, realizedPnl: 2 },
      'her YES on both ledgers, one member',
    );
  }
  const twice = await get(`/v1/fills?markets=${LEGACY},${MIGRATED}&from=${ts(218)}&to=${ts(218) + 60}`);
  t.equal(twice.status, 400, 'one market named by both its ids is a repeat');
  const kateTrades = await get(`/v1/wallets/${KATE}/trades?market=${LEGACY}`);
  t.equal(kateTrades.body.trades.length, 1, 'the wallet trades filter by the legacy id finds the V3 fill');
  const board = (await get('/v1/leaderboard?sort=volume&limit=100')).body.rows;
  t.match(
    board.find((r: { wallet: string }) => r.wallet === KATE),
    { marketsTraded: 1 },
    'one market on the board, not two',
  );
});

t.test('default: the market routes take a 62-hex condition id and show V3 fills', async (t) => {
  const traders = await get(`/v1/markets/${COND_A}/traders`);
  t.equal(traders.status, 200);
  t.equal(traders.body.conditionId, COND_A);
  t.same(traders.body.traders.map((r: { wallet: string }) => r.wallet).sort(), [ALICE, BOB, CAROL].sort());
  t.match(traders.body.traders.find((r: { wallet: string }) => r.wallet === BOB).outcomes, [
    { outcomeIndex: 1, ledger: 'v2', comboStatus: 'RESOLVED_LOSS' },
  ]);
  const trades = await get(`/v1/markets/${COND_A}/trades`);
  t.same(
    trades.body.trades.map((r: { wallet: string; exchange: string; side: string }) => [r.wallet, r.side, r.exchange]),
    [
      [ALICE, 'SELL', 'v3'],
      [BOB, 'BUY', 'v3'],
    ],
  );
  t.equal(trades.body.trades[0].conditionId, COND_A);
  // The fills feed: V3 fills of a V2 market with exchange code 6; a listed combo gives no rows (spec 4.9).
  const feed = await get(`/v1/fills?markets=${COMBO},${COND_A}&from=${T0}&to=${T0 + 3600}`);
  t.equal(feed.status, 200, JSON.stringify(feed.body));
  t.same(
    feed.body.fills.map((r: number[]) => [r[0], r[5], r[6], r[7], r[8], r[9], r[10]]),
    [
      [1, 0, 100 * M, 30 * M, 6, 0, 0],
      [1, 1, 100 * M, 30 * M, 6, 1, 300_000],
    ],
  );
  const unknown = await get(`/v1/markets/0x01${'99'.repeat(30)}/traders`);
  t.equal(unknown.status, 404);
});

t.test('default: neg-risk siblings derive NO once one question resolves YES', async (t) => {
  const yes = await settled(LARA, yesOf(Q1));
  t.match(yes, { shares: 20, costBasis: 10, resolved: true, settle: 0, resolvedAt: ts(222), moduleId: 2 });
  t.match(yes, { comboStatus: 'RESOLVED_LOSS', legsResolved: 1, legsPending: 0, resolvedFactor: 0 });
  t.match(await settled(LARA, v2PositionId(Q1, 1)), { settle: 1, settledPnl: 10, comboStatus: 'RESOLVED_WIN' });
  const other = await get(`/v1/markets/${OTHER}/traders`);
  t.equal(other.status, 200, 'Other is known (resolved NO by derivation)');
  t.same(
    other.body.traders.map((r: { wallet: string }) => r.wallet),
    [MONA],
  );
});

t.test('default: a neg-risk event split, merged and converted across its outcomes, to the micro-dollar', async (t) => {
  // Q0 YES: 10 split (3.333334), 4 merged (basis 1.333334 out for 1.333334), 9 from the conversion (2.25): 15
  // shares, basis 4.25, paid 1 each once Q0 won. Q1 YES: 6 left (basis 2) plus 12 split (6). Other: as Q0 but a
  // third less basis (3.333333 - 1.333333 + 2.25); it lost. NO of Q1: 3 left of 12 (basis 1.5); it won.
  const q0 = await settled(MONA, yesOf(Q0));
  t.match(q0, { shares: 15, costBasis: 4.25, realizedPnl: 0, settle: 1, settledPnl: 10.75, basisApprox: true });
  // The spec's `invested` counts split shares at $0.50 (written for two outcomes; kept as written).
  t.match(q0, { invested: 5, moduleId: 2 });
  t.match(await settled(MONA, yesOf(Q1)), { shares: 18, costBasis: 8, realizedPnl: 0, settle: 0, settledPnl: -8 });
  t.match(await settled(MONA, yesOf(OTHER)), { shares: 15, costBasis: 4.25, settle: 0, settledPnl: -4.25 });
  t.match(await settled(MONA, v2PositionId(Q1, 1)), { shares: 3, costBasis: 1.5, settle: 1, settledPnl: 1.5 });
  const raw = (await get(`/v1/wallets/${MONA}/positions`)).body.positions;
  t.match(
    raw.find((r: { tokenId: string }) => r.tokenId === tokenIdToDecimal(yesOf(Q0))),
    {
      splitShares: 10,
      mergedShares: 4,
      mergeUsd: 1.333334,
    },
  );
  // She paid 10 + 12 and was paid 4 back; she holds 15 winning YES and 3 winning NO: 18 in, 18 out.
  const rows = await Promise.all([Q0, Q1, OTHER].map((q) => settled(MONA, yesOf(q))));
  rows.push(await settled(MONA, v2PositionId(Q1, 1)));
  const pnl = rows.reduce((sum, r) => sum + Math.round(r.settledPnl * M), 0);
  t.equal(pnl, 0, 'no PnL: the event pays what it cost');
});

t.test(
  'behavior: logs of the stack with an unknown topic are counted, said by ingest and shown by health',
  async (t) => {
    t.match(ingest.stderr, `2 logs of Protocol V2 contracts carry topics tally does not know`);
    t.match(ingest.stderr, `${UPGRADED} (2)`);
    t.same((await get('/v1/health')).body.unknownTopics, { [UPGRADED]: 2 });
  },
);

t.test('behavior: no contract of the V2 stack is a wallet in any answer', async (t) => {
  for (const contract of STACK) {
    t.same((await get(`/v1/wallets/${contract}/positions`)).body.positions, [], `${contract}: no position`);
    t.same((await get(`/v1/wallets/${contract}/trades`)).body.trades, [], `${contract}: no trade`);
  }
  const board = (await get('/v1/leaderboard')).body;
  t.same(
    board.rows.map((r: { wallet: string }) => r.wallet).sort(),
    [ALICE, BOB, CAROL, DAVE, ERIN, FRANK, GINA, HANK, JACK, KATE, LARA, MONA, NINA].sort(),
  );
  const text = JSON.stringify(board);
  for (const contract of STACK) t.notOk(text.includes(contract), `board: no ${contract}`);
});
