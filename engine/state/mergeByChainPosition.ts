// Merges sorted runs of chain positions (fill lists, oldest first) into one run in chain order: a binary min-heap
// of the runs' heads, by block, then log index. A scan over many markets' lists then reads the fills table in
// chain order, so consecutive fills of one block are read from the table once.
import { assert } from '../assert.js';

/** A run's head: the position it is at, and a step to its next one. */
export interface PositionRun {
  block: number;
  logIndex: number;
  /** Moves to the run's next position; false once there is none. */
  next(): boolean;
}

const before = (a: PositionRun, b: PositionRun) =>
  a.block < b.block || (a.block === b.block && a.logIndex < b.logIndex);

export interface MergedRuns<Run extends PositionRun> {
  /** The run holding the oldest position left, or undefined when every run is done. */
  peek(): Run | undefined;
  /** Moves the oldest run on to its next position. */
  advance(): void;
}

/** `runs` each already at their first position (next() called and true). */
export function mergeByChainPosition<Run extends PositionRun>(runs: Run[]): MergedRuns<Run> {
  const heap: Run[] = [];
  const up = (i: number) => {
    assert(i >= 0 && i < heap.length, 'a run moved up is in the heap');
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) return;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  };
  const down = (i: number) => {
    assert(i >= 0 && i < heap.length, 'a run moved down is in the heap');
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && before(heap[left]!, heap[least]!)) least = left;
      if (right < heap.length && before(heap[right]!, heap[least]!)) least = right;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least]!, heap[i]!];
      i = least;
    }
  };
  for (const run of runs) {
    heap.push(run);
    up(heap.length - 1);
  }
  // A few runs (a fill scan's lists): the top is the oldest head.
  assert(heap.length === 0 || heap.every((run) => !before(run, heap[0]!)), 'the heap holds the oldest run on top');
  return {
    peek: () => heap[0],
    advance() {
      assert(heap.length > 0, 'a merge advances while a run is left');
      const top = heap[0]!;
      const block = top.block;
      const logIndex = top.logIndex;
      if (top.next()) {
        // Each run is sorted: the next head is after the one it leaves.
        assert(top.block > block || (top.block === block && top.logIndex > logIndex), 'a run moves forward');
        down(0);
        return;
      }
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        down(0);
      }
    },
  };
}
