// The position invariants checked at the end of every event (engine/reducers/assertPosition.ts): a reducer never
// breaks them on legal events, so a break is a bug and stops the fold with an AssertionFailure, never a wrong figure.
import t from 'tap';
import { AssertionFailure, assert } from '../../engine/assert.js';
import { foldBookBuy } from '../../engine/reducers/foldBookBuy.js';
import { foldBookSell } from '../../engine/reducers/foldBookSell.js';
import { createPosition } from '../../engine/reducers/position.js';
import { POSITION_EVENT } from '../../engine/reducers/positionEvent.js';

const U = 1_000_000;
const base = { ts: 1_700_000_000, block: 1, logIndex: 0, wallet: 'a', token: 't', market: 'm' };
const buy = { ...base, kind: POSITION_EVENT.bookBuy, shares: 10 * U, usd: 4 * U, feeUsd: 0, feeShares: 0 } as const;
const sell = { ...base, kind: POSITION_EVENT.bookSell, shares: 25 * U, usd: 9 * U, feeUsd: 0 } as const;

t.test('default: legal events keep every invariant, selling more than held included', async (t) => {
  const position = createPosition();
  foldBookBuy(position, buy);
  foldBookSell(position, sell);
  t.same([position.shares, position.costBasis], [-15 * U, 0], 'the excess carries no basis');
});

t.test('error: a position whose basis went negative stops the fold', async (t) => {
  const position = Object.assign(createPosition(), { shares: 5 * U, costBasis: -1 });
  t.throws(
    () => foldBookBuy(position, { ...buy, usd: 0 }),
    new AssertionFailure("a position's cost basis is not negative"),
  );
});

t.test('error: a counter gone negative', async (t) => {
  t.throws(() => foldBookBuy(Object.assign(createPosition(), { fills: -2 }), buy), {
    name: 'AssertionFailure',
    message: /counters are not negative/,
  });
});

t.test('default: assert says what should hold', async (t) => {
  t.doesNotThrow(() => assert(1, 'one is true'));
  t.throws(() => assert(0, 'zero is true'), { name: 'AssertionFailure', message: 'assertion failed: zero is true' });
});
