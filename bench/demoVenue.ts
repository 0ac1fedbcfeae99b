// The 200k-fill demo venue the API, page and gzip benches share (bench/.cache/api/venue), generated and folded
// once, a fresh API key for it, and the wallet and market the benches look at.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ID_SPACE } from '../engine/log/idDictionary.js';
import { openStateStore } from '../engine/state/openStateStore.js';
import { createStateReader } from '../engine/state/stateReader.js';

export const BENCH_VENUE_ROOT = join('bench', '.cache', 'api');
const tally = new URL('../cli/tally.mjs', import.meta.url).pathname;

export function benchDemoVenue(): { data: string; key: string } {
  const data = join(BENCH_VENUE_ROOT, 'venue');
  if (!existsSync(join(data, 'state'))) {
    mkdirSync(BENCH_VENUE_ROOT, { recursive: true });
    console.log('generating and folding the 200k-fill demo venue');
    const run = spawnSync(process.execPath, [tally, 'demo', '--data', data], { stdio: 'inherit' });
    if (run.status !== 0) throw new Error('demo failed');
  }
  const key = spawnSync(process.execPath, [tally, 'keys', 'create', '--data', data], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .at(-1)!;
  return { data, key };
}

/**
 * What the page and gzip benches look at: the wallet whose position count is nearest `positions` (the most, for
 * Infinity), and the condition with the most fills, with its fill count.
 */
export async function benchSubjects(
  data: string,
  positions: number,
): Promise<{ wallet: string; market: string; marketFills: number }> {
  const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
  const state = createStateReader(store);
  let wallet = '';
  let distance = Infinity;
  for (const holder of state.positionHolders()) {
    const off = positions === Infinity ? -holder.positions : Math.abs(holder.positions - positions);
    if (wallet === '' || off < distance) [wallet, distance] = [holder.wallet, off];
  }
  const fills = new Map<number, number>();
  for (const { fill } of state.fillsFrom(0)) {
    if (fill.marketSpace === ID_SPACE.condition) fills.set(fill.marketId, (fills.get(fill.marketId) ?? 0) + 1);
  }
  const [marketId, marketFills] = [...fills].sort((a, b) => b[1] - a[1])[0]!;
  const market = state.idText(ID_SPACE.condition, marketId);
  await store.close();
  return { wallet, market, marketFills };
}
