// Shared slots through which the two ends of a wallet-to-wallet transfer pass the moved basis between workers.
// Deadlock-free: a receiver waits only for a transfer earlier in the log than anything its sender still waits
// for, since every worker folds its events in chain order.
import type { BasisChannel } from '../reducers/foldPositionEvent.js';
import { assert } from '../assert.js';

const WAIT_MS = 120_000;

export function createTransferSlots(count: number): SharedArrayBuffer {
  // The derive sink's slot counter for the batch (createFoldRunner: nextSlot).
  assert(Number.isSafeInteger(count) && count >= 0, 'transfer slots are counted');
  const flagsBytes = Math.ceil((count * 4) / 8) * 8;
  return new SharedArrayBuffer(flagsBytes + count * 8 || 8);
}

export function openTransferSlots(buffer: SharedArrayBuffer, count: number): BasisChannel {
  const flagsBytes = Math.ceil((count * 4) / 8) * 8;
  assert(buffer.byteLength >= flagsBytes + count * 8, 'transfer slots: the buffer holds every slot');
  const flags = new Int32Array(buffer, 0, count);
  const values = new Float64Array(buffer, flagsBytes, count);
  return {
    publish(slot, basis) {
      // derive numbers a transfer's two events with one slot below the batch's count; a slot past it would be lost,
      // as a typed array drops a store out of range, and its receiver would wait for it until WAIT_MS.
      assert(slot >= 0 && slot < count, 'transfer slot: a slot the batch numbered');
      // Each transfer has one sender: a slot set twice would hand its receiver one of two bases.
      assert(Atomics.load(flags, slot) === 0, 'transfer slot: published once');
      // removeBasis takes an integer of micro-units: basis arrives as the same integer (docs/design.md 3).
      assert(Number.isInteger(basis), 'transfer slot: the basis moved is an integer');
      values[slot] = basis;
      Atomics.store(flags, slot, 1);
      Atomics.notify(flags, slot);
    },
    receive(slot) {
      assert(slot >= 0 && slot < count, 'transfer slot: a slot the batch numbered');
      assert(Atomics.wait(flags, slot, 0, WAIT_MS) !== 'timed-out', 'transfer slot: the sender folds within the wait');
      return values[slot]!;
    },
  };
}
