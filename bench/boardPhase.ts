// One side of the board benchmark, in its own process so that its CPU time and memory are its own:
//   rollup DATA: the board's rollup of DATA's state (engine/rollup/rollupBoard.ts), as a fold runs it;
//   ceiling DATA: every position of the state read and decoded, nothing summed or written;
//   stats DATA WALLET N: the 7d stats answer of WALLET computed N times by the route (no HTTP, no answer cache),
//     against reading the wallet's market results alone.
// Each prints one JSON line: seconds and CPU seconds (user + system), or per-call milliseconds (medians).
import { join } from 'node:path';
import { createStateReads } from '../api/stateReads.js';
import type { RouteContext } from '../api/routeContext.js';
import { walletStatsRoute } from '../api/routes/walletStatsRoute.js';
import { compileQuery } from '../api/query/queryParams.js';
import { dataPaths } from '../engine/dataDir.js';
import { ID_SPACE } from '../engine/log/idDictionary.js';
import { openOffchainStore } from '../engine/offchain/openOffchainStore.js';
import { rollupBoard } from '../engine/rollup/rollupBoard.js';
import { resultCount } from '../engine/state/boardRecords.js';
import { openStateStore } from '../engine/state/openStateStore.js';
import { createStateReader } from '../engine/state/stateReader.js';

const [phase, data, ...args] = process.argv.slice(2) as [string, string, ...string[]];
const store = openStateStore({ dir: join(data, 'state'), readOnly: phase !== 'rollup' });
const offchain = openOffchainStore({ dir: join(data, 'offchain') });
const state = createStateReader(store);

function measured<T>(work: () => T): { result: T; seconds: number; cpuSeconds: number } {
  const before = process.resourceUsage();
  const started = process.hrtime.bigint();
  const result = work();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const usage = process.resourceUsage();
  return {
    result,
    seconds,
    cpuSeconds: (usage.userCPUTime + usage.systemCPUTime - before.userCPUTime - before.systemCPUTime) / 1e6,
  };
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function perCall(calls: number, work: () => unknown): number {
  const ms: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = process.hrtime.bigint();
    work();
    ms.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(ms);
}

if (phase === 'rollup') {
  const { result, seconds, cpuSeconds } = measured(() => rollupBoard(store, offchain, { always: true }));
  console.log(
    JSON.stringify({
      seconds,
      cpuSeconds,
      wallets: result?.info.wallets,
      results: result?.info.results,
      maxRssMiB: process.resourceUsage().maxRSS / 1024,
    }),
  );
} else if (phase === 'ceiling') {
  const { result, seconds, cpuSeconds } = measured(() => {
    let positions = 0;
    for (let next = 0; ; ) {
      const step = state.positionsFrom(next, 20_000);
      if (step.length === 0) return positions;
      positions += step.length;
      next = step[step.length - 1]!.walletId + 1;
    }
  });
  console.log(JSON.stringify({ seconds, cpuSeconds, positions: result }));
} else {
  const [wallet, calls] = args as [string, string];
  const ctx: RouteContext = {
    state,
    offchain,
    paths: dataPaths(data),
    version: 'bench',
    reads: createStateReads(state, offchain),
    sourceHead: () => ({ block: 0, ts: 0 }),
  };
  ctx.reads.refresh();
  const walletId = state.idNumber(ID_SPACE.address, wallet)!;
  const markets = resultCount(state.walletResults(walletId));
  const statsQuery = compileQuery(walletStatsRoute.query);
  const stats = (period: string) => () =>
    walletStatsRoute.handle(ctx, { parameters: [wallet], query: statsQuery(`period=${period}`) });
  // A first call each: the market entries best/worst read are cached per state generation, as in the server.
  stats('7d')();
  stats('all')();
  console.log(
    JSON.stringify({
      markets,
      weekMs: perCall(Number(calls), stats('7d')),
      lifetimeMs: perCall(Number(calls), stats('all')),
      ceilingMs: perCall(Number(calls), () => state.walletResults(walletId)),
    }),
  );
}
await store.close();
await offchain.close();
