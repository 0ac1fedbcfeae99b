// A thread's background priority: the heavy-work thread of a serving thread, and the board's rollup in a process
// that also serves, give way to the threads answering requests (the kernel runs a woken serving thread first).
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Linux: nice 19 for the calling thread alone (setpriority on a thread id sets that thread's). Elsewhere, as it is. */
export function lowerThisThreadsPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(tid)) setPriority(tid, 19);
  } catch {
    // No /proc/thread-self, or not allowed: the thread runs at the process's priority.
  }
}
