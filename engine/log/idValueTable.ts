// One id space's values off the JS heap (idDictionary.ts): the values back to back in one buffer, found by an
// open-addressing index of their ids, so that 300,000 wallets cost at most about 14 MiB of native memory (values
// and index grow by doubling) instead of a string and a map entry each on a thread's heap.
import { assert } from '../assert.js';

const INITIAL_IDS = 1 << 10;

export class IdValueTable {
  count = 0;
  private values: Buffer;
  /** id + 1 per slot, 0 for none; at most half full, so probes stay short. */
  private slots: Int32Array;
  private shift: number;

  constructor(
    /** Bytes of one value. */
    readonly width: number,
  ) {
    // slotOf reads words at 0, 8 and width - 4.
    assert(Number.isInteger(width) && width >= 12, 'an id value is at least three words wide');
    this.values = Buffer.alloc(INITIAL_IDS * width);
    this.slots = new Int32Array(INITIAL_IDS * 2);
    this.shift = 32 - Math.log2(this.slots.length);
  }

  /** The id of the value at `bytes[at..at + width)`, -1 if it has none. */
  find(bytes: Buffer, at: number): number {
    assert(at >= 0 && at + this.width <= bytes.length, 'a value to find is whole');
    const mask = this.slots.length - 1;
    for (let slot = this.slotOf(bytes, at); ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return -1;
      if (this.holds(entry - 1, bytes, at)) return entry - 1;
    }
  }

  /** Numbers the value at `bytes[at..]` next (the caller knows it is new). */
  push(bytes: Buffer, at: number): number {
    const id = this.count;
    const width = this.width;
    assert(at >= 0 && at + width <= bytes.length, 'a value to number is whole');
    if ((id + 1) * width > this.values.length) {
      const grown = Buffer.alloc(this.values.length * 2);
      this.values.copy(grown, 0, 0, id * width);
      this.values = grown;
    }
    bytes.copy(this.values, id * width, at, at + width);
    this.count = id + 1;
    if (this.count * 2 > this.slots.length) this.index(this.slots.length * 2);
    else this.insert(id);
    // find's probe ends at an empty slot: there must always be one.
    assert(this.count * 2 <= this.slots.length, 'the index stays at most half full');
    return id;
  }

  /** Copies an id's value to `bytes[at..]`. */
  copyValue(id: number, bytes: Buffer, at: number): void {
    assert(id >= 0 && id < this.count, 'only a numbered id has a value');
    assert(at >= 0 && at + this.width <= bytes.length, 'a value copied fits where it goes');
    this.values.copy(bytes, at, id * this.width, (id + 1) * this.width);
  }

  /** An id's value as lowercase hex. */
  hex(id: number): string {
    assert(id >= 0 && id < this.count, 'only a numbered id has a text');
    return this.values.toString('hex', id * this.width, (id + 1) * this.width);
  }

  /** Forgets every id at or above `count`. */
  truncate(count: number): void {
    assert(Number.isSafeInteger(count) && count >= 0, 'a table is cut back to a count');
    if (count >= this.count) return;
    this.count = count;
    // Rare (a frame refused): the index is rebuilt rather than taught deletion.
    this.index(this.slots.length);
  }

  private index(slotCount: number): void {
    assert((slotCount & (slotCount - 1)) === 0 && this.count * 2 <= slotCount, 'an index is a half-full power of two');
    this.slots = new Int32Array(slotCount);
    this.shift = 32 - Math.log2(slotCount);
    for (let id = 0; id < this.count; id++) this.insert(id);
  }

  private insert(id: number): void {
    assert(id < this.count, 'only a numbered id is indexed');
    const mask = this.slots.length - 1;
    let slot = this.slotOf(this.values, id * this.width);
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = id + 1;
  }

  /**
   * The home slot of a value: three of its words mixed (Fibonacci hashing). Addresses and hashed ids are uniform in
   * every word; small numbers (the last) and vanity addresses (the first) are not in some.
   */
  private slotOf(bytes: Buffer, at: number): number {
    const mixed =
      bytes.readUInt32LE(at) ^
      Math.imul(bytes.readUInt32LE(at + 8), 0xcc9e2d51) ^
      Math.imul(bytes.readUInt32LE(at + this.width - 4), 0x85ebca6b);
    return Math.imul(mixed, 0x9e3779b1) >>> this.shift;
  }

  private holds(id: number, bytes: Buffer, at: number): boolean {
    const values = this.values;
    const start = id * this.width;
    for (let i = 0; i < this.width; i++) if (values[start + i] !== bytes[at + i]) return false;
    return true;
  }
}
