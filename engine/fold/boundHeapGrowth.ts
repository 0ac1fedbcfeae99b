// The fold's heaps hold little live data (65 MiB of the main thread's late in a 1M fold) but allocate fast, and V8
// then sizes a heap at up to four times what survived its last collection and keeps those pages. At 10M fills the
// heaps' slack took the process past its memory budget, and the state map was released before most commits. A
// fixed growing factor bounds the slack for a few more collections (bench/README: the heaps' growth bounded). The
// setting is the process's: it holds for every isolate, the workers' too, from the next collection on, so it is
// lifted when the last fold ends (a server that folded a stale state first then serves with V8's own sizing).
import v8 from 'node:v8';
import { HEAP_GROWING_PERCENT } from '../limits.js';
import { assert } from '../assert.js';

/** V8's default: the factor follows the collector's speed against the program's. */
const V8_OWN_GROWTH = 0;

/**
 * A bound kept through `setFlags` (V8's own for the process; a test's recorder): the returned function bounds every
 * heap's growth until the function it answers is called, and every other holder's too.
 */
export function createHeapGrowthBound(setFlags: (flags: string) => void): (percent?: number) => () => void {
  let holders = 0;
  return (percent = HEAP_GROWING_PERCENT) => {
    // 0 is V8's own sizing, which lifting the bound restores: a bound is a positive whole percent.
    assert(Number.isInteger(percent) && percent > 0, 'a heap bound grows a heap by a positive percent');
    if (holders++ === 0) setFlags(`--heap-growing-percent=${percent}`);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--holders === 0) setFlags(`--heap-growing-percent=${V8_OWN_GROWTH}`);
      // Each bound is lifted once (`held`): the holders never go below none.
      assert(holders >= 0, 'a heap bound is lifted no more often than it is taken');
    };
  };
}

export const boundHeapGrowth = createHeapGrowthBound((flags) => v8.setFlagsFromString(flags));
