// What a backfilling state says of its progress (api/readCatchUp.ts): the target it was aimed at, or the source's
// head when further; none while a capture read from a pipe is folded (its end unknown), and no time left then.
import t from 'tap';
import { catchingUpText, readCatchUp } from '../../api/readCatchUp.js';
import type { FoldRate } from '../../api/createFoldRate.js';
import type { RouteContext } from '../../api/routeContext.js';
import { UNKNOWN_TARGET } from '../../engine/state/backfillRecord.js';

function context(target: number | null, sourceHead: number): Pick<RouteContext, 'state' | 'sourceHead'> {
  const state = {
    cursor: () => ({ block: 1_000, events: 5 }),
    block: () => ({ ts: 77 }),
    backfill: () => (target === null ? null : { since: -1, positionsEmpty: true, target, loading: -1, entries: 0 }),
    sourceOutage: () => null,
    readThrough: () => null,
  };
  return { state: state as unknown as RouteContext['state'], sourceHead: () => ({ block: sourceHead, ts: 0 }) };
}
const rate = { rate: () => ({ blocksPerSecond: 50, eventsPerSecond: 0 }) } as unknown as FoldRate;

t.test('default: a known target, and the time left at the rate', async (t) => {
  const catchUp = readCatchUp(context(4_000, -1), rate, 0);
  t.same(catchUp, { mode: 'backfill', block: 1_000, target: 4_000, blocksPerSecond: 50, etaSeconds: 60 });
  t.equal(catchingUpText(catchUp), 'catching up: block 1000 of 4000, about 1 min left');
  t.equal(readCatchUp(context(4_000, 9_000), rate, 0).target, 9_000, "the source's head when further");
  t.same(readCatchUp(context(null, 9_000), rate, 0).mode, 'live');
});

t.test('behavior: a target not known (a capture from a pipe) is shown as none, with no time left', async (t) => {
  const catchUp = readCatchUp(context(UNKNOWN_TARGET, -1), rate, 0);
  t.same(catchUp, { mode: 'backfill', block: 1_000, target: null, blocksPerSecond: 50, etaSeconds: null });
  t.equal(catchingUpText(catchUp), 'catching up: block 1000');
  t.equal(readCatchUp(context(UNKNOWN_TARGET, 3_000), rate, 0).target, 3_000, "a source's head still counts");
});
