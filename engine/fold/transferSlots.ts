// Shared slots through which the two ends of a wallet-to-wallet transfer pass the moved basis between workers.
// Deadlock-free: a receiver waits only for a transfer earlier in the log than anything its sender still waits
// for, since every worker folds its events in chain order.
import type { BasisChannel } from '../reducers/foldPositionEvent.js';
import { assert } from '../assert.js';

const WAIT_MS = 120_000;

export function createTransferSlots(count: number): SharedArrayBuffer {
  const flagsBytes = Math.ceil((count * 4) / 8) * 8;
  return new SharedArrayBuffer(flagsBytes + count * 8 || 8);
}

export function openTransferSlots(buffer: SharedArrayBuffer, count: number): BasisChannel {
  const flagsBytes = Math.ceil((count * 4) / 8) * 8;
  const flags = new Int32Array(buffer, 0, count);
  const values = new Float64Array(buffer, flagsBytes, count);
  return {
    publish(slot, basis) {
      values[slot] = basis;
      Atomics.store(flags, slot, 1);
      Atomics.notify(flags, slot);
    },
    receive(slot) {
      assert(Atomics.wait(flags, slot, 0, WAIT_MS) !== 'timed-out', 'transfer slot: the sender folds within the wait');
      return values[slot]!;
    },
  };
}
