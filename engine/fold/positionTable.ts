// A wallet worker's positions between batches, packed (engine/README.md, Fold): each position's 21 numbers in one
// row of a Float64Array, its ids and bookkeeping in typed arrays beside it, found by an open-addressing index on
// (wallet, token) with linear probing. No object and no boxed number a position, so the collector never walks the
// cache: about 210 bytes a position, against some 500 as a Map of objects. Rows are dense and keep their number until
// `retain` compacts them (between tasks only).
import type { Position } from '../reducers/position.js';
import { assert } from '../assert.js';

export const NO_ROW = -1;
const FIELDS = 21;

export interface PositionTable {
  readonly size: number;
  /** The row of (wallet, token), or NO_ROW. */
  find(wallet: number, token: number): number;
  /** A new row for (wallet, token), not in the table: its numbers 0, its bookkeeping as `init` sets it. */
  add(wallet: number, token: number): number;
  wallet(row: number): number;
  token(row: number): number;
  /** Copies the row's numbers into `into`. */
  read(row: number, into: Position): void;
  write(row: number, from: Position): void;
  /** Per-row numbers the worker keeps (blocks, task numbers, offsets, market ids): each a column of its own. */
  readonly touchedBlock: { get(row: number): number; set(row: number, value: number): void };
  readonly writtenIn: { get(row: number): number; set(row: number, value: number): void };
  readonly lastWrite: { get(row: number): number; set(row: number, value: number): void };
  readonly freshMarket: { get(row: number): number; set(row: number, value: number): void };
  readonly checkedOut: { get(row: number): number; set(row: number, value: number): void };
  /** The row's shares (its first number), without copying the rest. */
  shares(row: number): number;
  /** Keeps the rows `keep` answers true for, renumbered in their order. */
  retain(keep: (row: number) => boolean): void;
  clear(): void;
}

/** A column of per-row numbers (f64: blocks and offsets alike stay exact), grown with the rows. */
function createColumn(initial: number) {
  let values = new Float64Array(initial);
  return {
    get: (row: number) => values[row]!,
    set(row: number, value: number) {
      // A typed array drops a store past its end without a word: a row beyond the capacity would lose its number.
      assert(row >= 0 && row < values.length, 'position table: a column is set at a row it holds');
      values[row] = value;
    },
    grow(capacity: number) {
      assert(capacity >= values.length, 'position table: a column grows');
      const grown = new Float64Array(capacity);
      grown.set(values);
      values = grown;
    },
    move(from: number, to: number) {
      // retain keeps rows in order, each moved down to the next kept place.
      assert(to < from, 'position table: a row kept moves down');
      values[to] = values[from]!;
    },
  };
}

/** A mix of the pair, for the index. */
function slotOf(wallet: number, token: number, mask: number): number {
  // The index's length less one: a power of two's low bits, so the slot lies inside it.
  assert((mask & (mask + 1)) === 0, "position table: the index's mask is a power of two less one");
  let h = Math.imul(wallet, 0x9e3779b1) ^ Math.imul(token ^ 0x85ebca6b, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 12)) & mask;
}

export function createPositionTable(
  init: (table: PositionTable, row: number) => void,
  initialCapacity = 1024,
): PositionTable {
  let capacity = initialCapacity;
  let size = 0;
  let numbers = new Float64Array(capacity * FIELDS);
  let wallets = new Uint32Array(capacity);
  let tokens = new Uint32Array(capacity);
  /** Row + 1 per slot (0: empty); twice the rows' capacity, so the load stays at or under a half. */
  let index = new Int32Array(capacity * 2);
  const touchedBlock = createColumn(capacity);
  const writtenIn = createColumn(capacity);
  const lastWrite = createColumn(capacity);
  const freshMarket = createColumn(capacity);
  const checkedOut = createColumn(capacity);
  const columns = [touchedBlock, writtenIn, lastWrite, freshMarket, checkedOut];

  const place = (row: number) => {
    // The index has twice the rows' capacity: at most half full, so the probe below meets an empty slot.
    assert(row < size && size * 2 <= index.length, 'position table: a row placed is one of at most half the slots');
    const mask = index.length - 1;
    let slot = slotOf(wallets[row]!, tokens[row]!, mask);
    while (index[slot] !== 0) slot = (slot + 1) & mask;
    index[slot] = row + 1;
  };
  const reindex = () => {
    assert(size <= capacity, 'position table: the rows fit their capacity');
    index = new Int32Array(capacity * 2);
    for (let row = 0; row < size; row++) place(row);
  };
  const grow = () => {
    // add grows a full table only: a row is never lost to a copy of a shorter one.
    assert(size === capacity, 'position table: only a full table grows');
    capacity *= 2;
    const grownNumbers = new Float64Array(capacity * FIELDS);
    grownNumbers.set(numbers);
    numbers = grownNumbers;
    const grownWallets = new Uint32Array(capacity);
    grownWallets.set(wallets);
    wallets = grownWallets;
    const grownTokens = new Uint32Array(capacity);
    grownTokens.set(tokens);
    tokens = grownTokens;
    for (const column of columns) column.grow(capacity);
    reindex();
    assert(numbers.length === capacity * FIELDS && wallets.length === capacity, 'position table: a row a place');
  };

  const table: PositionTable = {
    get size() {
      return size;
    },
    find(wallet, token) {
      // State ids, u32s: a negative or fractional one would never match, and look like a new position.
      assert(wallet >= 0 && token >= 0, 'position table: a position is found by its ids');
      const mask = index.length - 1;
      for (let slot = slotOf(wallet, token, mask); ; slot = (slot + 1) & mask) {
        const entry = index[slot]!;
        if (entry === 0) return NO_ROW;
        if (wallets[entry - 1] === wallet && tokens[entry - 1] === token) return entry - 1;
      }
    },
    add(wallet, token) {
      // The caller found none: a second row of a pair would fold half its events apart from the other's.
      assert(table.find(wallet, token) === NO_ROW, 'position table: a position is added once');
      if (size === capacity) grow();
      const row = size++;
      wallets[row] = wallet;
      tokens[row] = token;
      numbers.fill(0, row * FIELDS, (row + 1) * FIELDS);
      place(row);
      init(table, row);
      assert(size <= capacity, 'position table: a row added fits its capacity');
      return row;
    },
    wallet: (row) => wallets[row]!,
    token: (row) => tokens[row]!,
    read(row, p) {
      // Past `size` a row is stale or zeros: no position's numbers.
      assert(row >= 0 && row < size, "position table: a row read is one of the table's");
      const v = numbers;
      const at = row * FIELDS;
      p.shares = v[at]!;
      p.costBasis = v[at + 1]!;
      p.realizedPnl = v[at + 2]!;
      p.boughtShares = v[at + 3]!;
      p.boughtUsd = v[at + 4]!;
      p.soldShares = v[at + 5]!;
      p.soldUsd = v[at + 6]!;
      p.splitShares = v[at + 7]!;
      p.mergedShares = v[at + 8]!;
      p.mergeUsd = v[at + 9]!;
      p.redeemedShares = v[at + 10]!;
      p.redeemUsd = v[at + 11]!;
      p.fees = v[at + 12]!;
      p.fills = v[at + 13]!;
      p.receivedShares = v[at + 14]!;
      p.receivedBasis = v[at + 15]!;
      p.firstTradeAt = v[at + 16]!;
      p.lastTradeAt = v[at + 17]!;
      p.lowSinceTs = v[at + 18]!;
      p.redemptions = v[at + 19]!;
      p.flags = v[at + 20]!;
    },
    write(row, p) {
      assert(row >= 0 && row < size, "position table: a row written is one of the table's");
      const v = numbers;
      const at = row * FIELDS;
      v[at] = p.shares;
      v[at + 1] = p.costBasis;
      v[at + 2] = p.realizedPnl;
      v[at + 3] = p.boughtShares;
      v[at + 4] = p.boughtUsd;
      v[at + 5] = p.soldShares;
      v[at + 6] = p.soldUsd;
      v[at + 7] = p.splitShares;
      v[at + 8] = p.mergedShares;
      v[at + 9] = p.mergeUsd;
      v[at + 10] = p.redeemedShares;
      v[at + 11] = p.redeemUsd;
      v[at + 12] = p.fees;
      v[at + 13] = p.fills;
      v[at + 14] = p.receivedShares;
      v[at + 15] = p.receivedBasis;
      v[at + 16] = p.firstTradeAt;
      v[at + 17] = p.lastTradeAt;
      v[at + 18] = p.lowSinceTs;
      v[at + 19] = p.redemptions;
      v[at + 20] = p.flags;
    },
    touchedBlock,
    writtenIn,
    lastWrite,
    freshMarket,
    checkedOut,
    shares: (row) => numbers[row * FIELDS]!,
    retain(keep) {
      let kept = 0;
      for (let row = 0; row < size; row++) {
        if (!keep(row)) continue;
        if (kept !== row) {
          numbers.copyWithin(kept * FIELDS, row * FIELDS, (row + 1) * FIELDS);
          wallets[kept] = wallets[row]!;
          tokens[kept] = tokens[row]!;
          for (const column of columns) column.move(row, kept);
        }
        kept++;
      }
      size = kept;
      reindex();
      // The index is rebuilt over the renumbered rows: the first finds itself.
      assert(size === 0 || table.find(wallets[0]!, tokens[0]!) === 0, 'position table: a row kept is found');
    },
    clear() {
      size = 0;
      index.fill(0);
      assert(index.length === capacity * 2, 'position table: the index has two slots a row');
    },
  };
  assert((initialCapacity & (initialCapacity - 1)) === 0, 'position table: its capacity is a power of two');
  return table;
}
