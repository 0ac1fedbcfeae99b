// The fold's heaps hold little live data (65 MiB of the main thread's late in a 1M fold) but allocate fast, and V8
// then sizes a heap at up to four times what survived its last collection and keeps those pages. At 10M fills the
// heaps' slack took the process past its memory budget, and the state map was released before most commits. A
// fixed growing factor bounds the slack for a few more collections (bench/README: issue 24, heaps). The setting is
// the process's: it holds for every isolate, the workers' too, from the next collection on.
import v8 from 'node:v8';
import { HEAP_GROWING_PERCENT } from '../limits.js';

export function boundHeapGrowth(percent = HEAP_GROWING_PERCENT): void {
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
