// Two newest-first fill lists (a market's on each ledger) as one, newest first: by block, then log index.
import { assert } from '../assert.js';
import type { StoredFill } from './storedFill.js';

const newer = (a: StoredFill, b: StoredFill) =>
  a.block > b.block || (a.block === b.block && a.row.logIndex > b.row.logIndex);

export function* newestFirst(a: Iterable<StoredFill>, b: Iterable<StoredFill>): Generator<StoredFill> {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  let x = left.next();
  let y = right.next();
  let last: StoredFill | null = null;
  while (!x.done || !y.done) {
    const taken: StoredFill = y.done || (!x.done && newer(x.value, y.value)) ? x.value : y.value;
    // Each list newest first, and a fill is stored under one ledger's condition: the merge never repeats one.
    assert(last === null || newer(last, taken), "two ledgers' fills come newest first, each once");
    last = taken;
    yield taken;
    if (taken === x.value) x = left.next();
    else y = right.next();
  }
}
