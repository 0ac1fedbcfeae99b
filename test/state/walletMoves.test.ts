// Wallet moves (engine/state/walletMove.ts), what /activity lists beside fills: which position events are moves and
// with what figures, their stored form round-trips, and on a folded demo each wallet's moves read newest first,
// from any move on.
import t from 'tap';
import { walletMoveOf } from '../../engine/fold/walletMoveOf.js';
import { POSITION_EVENT, type PositionEvent } from '../../engine/reducers/positionEvent.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { decodeWalletMove, encodeWalletMove, MOVE_KIND, walletMoveKey } from '../../engine/state/walletMove.js';
import { createDemoData } from '../fixtures/demoData.js';
import { join } from 'node:path';

const base = { wallet: '0x' + 'ab'.repeat(20), ts: 1_700_000_000, block: 9, logIndex: 4 };
const A = '0x' + 'a1'.repeat(32);
const B = '0x' + 'b2'.repeat(32);
const C = '0x' + 'c3'.repeat(32);

t.test('behavior: splits, merges, redemptions and conversions are moves; trades and transfers are not', async (t) => {
  const split: PositionEvent = {
    ...base,
    kind: POSITION_EVENT.split,
    market: A,
    tokens: ['1', '2'],
    markets: [],
    amount: 5_000_000,
    viaAdapter: false,
  };
  t.same(walletMoveOf(split), { kind: MOVE_KIND.split, market: A, size: 5_000_000, usdc: 5_000_000 }, 'a split');
  t.same(
    walletMoveOf({
      ...base,
      kind: POSITION_EVENT.merge,
      market: B,
      tokens: ['1', '2', '3'],
      markets: [B, C, A],
      amount: 7,
    }),
    { kind: MOVE_KIND.merge, market: B, size: 7, usdc: 7 },
    "a set over many markets: its first leg's",
  );
  t.same(
    walletMoveOf({
      ...base,
      kind: POSITION_EVENT.redemption,
      market: A,
      tokens: ['1', '2'],
      numerators: [1, 0],
      denominator: 1,
      amounts: null,
      payout: 3_250_000,
    }),
    { kind: MOVE_KIND.redemption, market: A, size: 3_250_000, usdc: 3_250_000 },
    'a redemption: its payout, as size too',
  );
  t.same(
    walletMoveOf({
      ...base,
      kind: POSITION_EVENT.conversion,
      market: '',
      noTokens: ['1', '2', '3'],
      yesTokens: ['4'],
      noMarkets: [B, C, A],
      yesMarkets: [A],
      amount: 10_000_001,
      feeBips: 25,
    }),
    // Fee floor(10,000,001 x 25 / 10,000) = 25,000; two sets' worth of the rest comes back.
    { kind: MOVE_KIND.conversion, market: B, size: 10_000_001, usdc: 2 * 9_975_001 },
    'a conversion: its first NO leg, k-1 sets of cash less the fee',
  );
  t.equal(walletMoveOf({ ...split, market: '' }), null, 'a split of no known market');
  t.equal(
    walletMoveOf({ ...base, kind: POSITION_EVENT.transferIn, market: A, token: '1', amount: 5, slot: 0 }),
    null,
    'a transfer',
  );
  t.equal(
    walletMoveOf({
      ...base,
      kind: POSITION_EVENT.ammBuy,
      market: A,
      token: '1',
      investment: 10,
      fee: 0,
      shares: 20,
    } as PositionEvent),
    null,
    'a trade',
  );
});

t.test('behavior: a move round-trips through its stored form', async (t) => {
  const move = {
    kind: MOVE_KIND.conversion,
    block: 0xffff_fffe,
    logIndex: 70_000,
    ts: 1_800_000_000,
    tx: '0x' + 'ef'.repeat(32),
    market: C,
    size: 2 ** 53 - 1,
    usdc: 0,
  } as const;
  const key = Buffer.from(walletMoveKey(12, move.block, move.logIndex), 'latin1');
  t.equal(key.length, 12);
  const stored = encodeWalletMove(move, 77);
  const decode = (value: Buffer) =>
    decodeWalletMove(
      key,
      value,
      (id) => (id === 77 ? C : 'other'),
      (block) => (block === move.block ? move.ts : 0),
    );
  t.same(decode(stored), move, 'a conversion, its cash apart');
  const split = { ...move, kind: MOVE_KIND.split, size: 5, usdc: 5 };
  const short = encodeWalletMove(split, 77);
  t.equal(short.length, stored.length - 8, "a split's cash is its size: stored once");
  t.same(decode(short), split);
  t.throws(() => encodeWalletMove({ ...split, usdc: 4 }, 77), /its size's cash/, 'only a conversion moves other cash');
  t.throws(() => encodeWalletMove({ ...move, tx: '0x12' }, 77), /32-byte word/, 'a malformed hash is refused');
  t.throws(() => encodeWalletMove({ ...move, size: 1.5 }, 77), /micro-shares/, 'a fraction of a micro-share too');
});

t.test('default: a folded demo reads each wallet its moves newest first, and on from any of them', async (t) => {
  const { data } = await createDemoData(4_000, 12);
  const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
  t.teardown(() => store.close());
  const state = createStateReader(store);
  let moves = 0;
  const kinds = new Set<number>();
  for (const { wallet } of state.positionHolders()) {
    const list = [...state.walletMoves(wallet)];
    moves += list.length;
    for (const move of list) kinds.add(move.kind);
    const order = list.every(
      (move, i) =>
        i === 0 ||
        move.block < list[i - 1]!.block ||
        (move.block === list[i - 1]!.block && move.logIndex < list[i - 1]!.logIndex),
    );
    if (!order) t.fail(`${wallet}: newest first`);
    if (list.length < 3) continue;
    const middle = list[Math.floor(list.length / 2)]!;
    t.same([...state.walletMoves(wallet, middle)], list.slice(Math.floor(list.length / 2) + 1), `${wallet}: after one`);
  }
  t.ok(moves > 100, `${moves} moves`);
  t.same([...kinds].sort(), [1, 2, 3, 4], 'of every kind');
  t.same([...state.walletMoves('0x' + '00'.repeat(20))], [], 'a wallet the state never named has none');
});
