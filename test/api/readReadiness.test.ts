// How far the fold trails its source (api/readFoldLag.ts) and whether the server is ready for traffic
// (api/readReadiness.ts, config.json's readiness: api/loadReadiness.ts), over a stub state: the lag counts from the
// block the chain was read through, and each reason for not being ready is named.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_READINESS, loadReadiness } from '../../api/loadReadiness.js';
import type { CatchUp } from '../../api/readCatchUp.js';
import { readFoldLag } from '../../api/readFoldLag.js';
import { readReadiness } from '../../api/readReadiness.js';
import type { RouteContext } from '../../api/routeContext.js';
import { InputError } from '../../engine/inputError.js';
import type { SourceOutage } from '../../engine/state/sourceOutage.js';
import { processTempDir } from '../fixtures/processTempDir.js';

const SERVED = { block: 1_000, ts: 5_000 };
function context(
  head: { block: number; ts: number },
  readThrough: { block: number; ts: number } | null,
  outage: SourceOutage | null = null,
): Pick<RouteContext, 'state' | 'sourceHead'> {
  const state = {
    cursor: () => ({ block: SERVED.block, events: 5 }),
    block: () => ({ ts: SERVED.ts }),
    sourceOutage: () => outage,
    readThrough: () => readThrough,
  };
  return { state: state as unknown as RouteContext['state'], sourceHead: () => head };
}
const live: CatchUp = { mode: 'live', block: SERVED.block, target: null, blocksPerSecond: 0, etaSeconds: null };

t.test('default: the lag counts from the block the chain was read through', async (t) => {
  const quiet = readFoldLag(context({ block: 1_300, ts: 5_600 }, { block: 1_300, ts: 5_600 }));
  t.same([quiet.block, quiet.sourceHead, quiet.lagBlocks, quiet.lagSeconds], [1_000, 1_300, 0, 0], 'a quiet chain');
  const behind = readFoldLag(context({ block: 1_300, ts: 5_600 }, { block: 1_200, ts: 0 }));
  t.same([behind.lagBlocks, behind.lagSeconds], [100, 600], "a block read through without its time: the served one's");
  const none = readFoldLag(context({ block: 1_300, ts: 5_600 }, null));
  t.same([none.lagBlocks, none.lagSeconds], [300, 600], 'nothing read through recorded: the served block');
});

t.test('behavior: ready within the limits; each reason named past them', async (t) => {
  const limits = { maxLagBlocks: 64, maxOutageSeconds: 60 };
  t.same(readReadiness(readFoldLag(context({ block: 1_050, ts: 0 }, null)), live, limits), {
    ready: true,
    reasons: [],
  });
  const far = readReadiness(readFoldLag(context({ block: 1_100, ts: 0 }, null)), live, limits);
  t.same(far, { ready: false, reasons: ["100 blocks behind the source's finalized head (at most 64)"] });
  const since = Math.floor(Date.now() / 1000) - 120;
  const away = { since, failedAttempts: 9, lastError: 'ECONNREFUSED' } as SourceOutage;
  const gone = readReadiness(readFoldLag(context({ block: 1_000, ts: 0 }, null, away)), live, limits);
  t.equal(gone.ready, false);
  t.match(gone.reasons[0], /^the source has not answered for 1[2-3]\d s \(at most 60\)$/);
  const backfill: CatchUp = { ...live, mode: 'backfill', target: 9_000 };
  t.same(readReadiness(readFoldLag(context({ block: 1_000, ts: 0 }, null)), backfill, limits).reasons, [
    'the state is backfilling (block 1000 of 9000)',
  ]);
});

t.test('readiness from config.json: defaults, the figures given, a malformed entry refused naming it', async (t) => {
  const dir = processTempDir('tally-readiness-');
  const config = join(dir, 'config.json');
  t.same(loadReadiness(config), DEFAULT_READINESS, 'no config: the defaults');
  writeFileSync(config, JSON.stringify({ readiness: { maxLagBlocks: 10 } }));
  t.same(loadReadiness(config), { maxLagBlocks: 10, maxOutageSeconds: 60 });
  writeFileSync(config, JSON.stringify({ readiness: { maxLag: 10 } }));
  t.throws(() => loadReadiness(config), InputError);
  t.throws(() => loadReadiness(config), /readiness: unknown field maxLag/);
  writeFileSync(config, JSON.stringify({ readiness: { maxOutageSeconds: -1 } }));
  t.throws(() => loadReadiness(config), /readiness.maxOutageSeconds must be an integer from 0 to/);
});
