// The wallet worker's packed positions: every pair found again after the table grows and after rows are dropped,
// each row's 21 numbers and bookkeeping carried along, a Map of objects as the reference.
import t from 'tap';
import { createPosition, type Position } from '../../engine/reducers/position.js';
import { createPositionTable, NO_ROW, type PositionTable } from '../../engine/fold/positionTable.js';

const FIELDS = Object.keys(createPosition()) as Array<keyof Position>;

/** A position whose numbers all differ and name the pair. */
function positionOf(wallet: number, token: number): Position {
  const position = createPosition();
  FIELDS.forEach((field, i) => (position[field] = wallet * 1_000 + token * 10 + i + 0.5 * (i % 2)));
  return position;
}

/** How many of the reference's pairs the table does not hold as they were written. */
function wrongPairs(table: PositionTable, reference: Map<string, { wallet: number; token: number }>): number {
  let wrong = table.size === reference.size ? 0 : 1;
  const read = createPosition();
  for (const { wallet, token } of reference.values()) {
    const row = table.find(wallet, token);
    if (row === NO_ROW || table.wallet(row) !== wallet || table.token(row) !== token) {
      wrong++;
      continue;
    }
    table.read(row, read);
    if (JSON.stringify(read) !== JSON.stringify(positionOf(wallet, token))) wrong++;
    if (table.lastWrite.get(row) !== wallet + token) wrong++;
    if (table.shares(row) !== read.shares) wrong++;
  }
  return wrong;
}

t.test('unit: pairs are found after growth and after rows are dropped', async (t) => {
  const table = createPositionTable((table, row) => table.touchedBlock.set(row, -1), 16);
  const reference = new Map<string, { wallet: number; token: number }>();
  let seed = 99;
  const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
  let misses = 0;
  for (let i = 0; i < 5_000; i++) {
    const wallet = random(700);
    const token = random(90);
    const key = `${wallet}:${token}`;
    if (reference.has(key)) {
      if (table.find(wallet, token) === NO_ROW) misses++;
      continue;
    }
    // Absent before it is added; a new row initialised, its numbers zeros.
    if (table.find(wallet, token) !== NO_ROW) misses++;
    const row = table.add(wallet, token);
    const empty = createPosition();
    table.read(row, empty);
    if (table.touchedBlock.get(row) !== -1 || JSON.stringify(empty) !== JSON.stringify(createPosition())) misses++;
    table.write(row, positionOf(wallet, token));
    table.lastWrite.set(row, wallet + token);
    reference.set(key, { wallet, token });
  }
  t.equal(misses, 0, 'held pairs found, new ones absent until added, new rows empty');
  t.ok(reference.size > 1_000, `${reference.size} pairs`);
  t.equal(wrongPairs(table, reference), 0, 'every pair found with its numbers and bookkeeping, after growing');

  // Drop the pairs of odd wallets: the rest keep their numbers and bookkeeping, renumbered.
  table.retain((row) => table.wallet(row) % 2 === 0);
  for (const [key, { wallet }] of reference) if (wallet % 2 === 1) reference.delete(key);
  t.equal(wrongPairs(table, reference), 0, 'every kept pair found as it was, renumbered');
  t.equal(table.find(1, 1), NO_ROW, 'a dropped pair is gone');

  const kept = [...reference.values()][0]!;
  table.clear();
  t.equal(table.size, 0);
  t.equal(table.find(kept.wallet, kept.token), NO_ROW, 'nothing is found once cleared');
});
