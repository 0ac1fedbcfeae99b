// The 200k-fill demo venue the API and page benches share (bench/.cache/api/venue), generated and folded once,
// and a fresh API key for it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

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
