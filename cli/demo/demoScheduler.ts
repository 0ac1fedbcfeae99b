// Future work of the demo simulator (market openings and closes, resolutions, redemption sweeps, feed updates,
// copy trades, arbitrage legs), ordered by block and then by scheduling order, so runs are deterministic.
// A binary heap: only the near future is ever queued, so it stays small.

export type Task = () => void;

export class DemoScheduler {
  private readonly blocks: number[] = [];
  private readonly seqs: number[] = [];
  private readonly tasks: Task[] = [];
  private seq = 0;

  get size(): number {
    return this.tasks.length;
  }

  /** The block of the earliest task, or Infinity. */
  peekBlock(): number {
    return this.blocks.length === 0 ? Infinity : this.blocks[0]!;
  }

  at(block: number, task: Task): void {
    let i = this.tasks.length;
    const seq = this.seq++;
    this.blocks.push(block);
    this.seqs.push(seq);
    this.tasks.push(task);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** Removes and returns the earliest task. */
  pop(): Task {
    const top = this.tasks[0]!;
    const last = this.tasks.length - 1;
    this.swap(0, last);
    this.blocks.pop();
    this.seqs.pop();
    this.tasks.pop();
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.tasks.length && this.before(left, smallest)) smallest = left;
      if (right < this.tasks.length && this.before(right, smallest)) smallest = right;
      if (smallest === i) break;
      this.swap(i, smallest);
      i = smallest;
    }
    return top;
  }

  private before(a: number, b: number): boolean {
    const blockA = this.blocks[a]!;
    const blockB = this.blocks[b]!;
    return blockA < blockB || (blockA === blockB && this.seqs[a]! < this.seqs[b]!);
  }

  private swap(a: number, b: number): void {
    const block = this.blocks[a]!;
    this.blocks[a] = this.blocks[b]!;
    this.blocks[b] = block;
    const seq = this.seqs[a]!;
    this.seqs[a] = this.seqs[b]!;
    this.seqs[b] = seq;
    const task = this.tasks[a]!;
    this.tasks[a] = this.tasks[b]!;
    this.tasks[b] = task;
  }
}
