// Two newest-first fill lists (a market's on each ledger) as one, newest first: by block, then log index.
import type { StoredFill } from './storedFill.js';

const newer = (a: StoredFill, b: StoredFill) =>
  a.block > b.block || (a.block === b.block && a.row.logIndex > b.row.logIndex);

export function* newestFirst(a: Iterable<StoredFill>, b: Iterable<StoredFill>): Generator<StoredFill> {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  let x = left.next();
  let y = right.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && newer(x.value, y.value))) {
      yield x.value;
      x = left.next();
    } else {
      yield y.value;
      y = right.next();
    }
  }
}
