// `tally demo [--fills N] [--seed S]`: generate the demo venue into an empty data directory and fold it.
import { writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { dataPaths } from '../../engine/dataDir.js';
import { isEmptyDataDir } from '../openVenue.js';
import { ingestCommand } from './ingestCommand.js';
import { profilesCommand } from './profilesCommand.js';

export const DEFAULT_DEMO_FILLS = 200_000;

/** Returns false (and does nothing) when the directory already holds a venue. */
export async function demoCommand(flags: {
  data: string;
  fills?: number;
  seed?: number;
  workers?: number;
}): Promise<boolean> {
  if (!isEmptyDataDir(flags.data)) {
    process.stderr.write(`demo: ${flags.data} already holds a venue; nothing generated\n`);
    return false;
  }
  const paths = dataPaths(flags.data);
  mkdirSync(paths.demo, { recursive: true });
  // Loaded on demand: the simulator is only needed here.
  const { generateDemoVenue } = await import('../demo/generateDemoVenue.js');
  const { DEMO_PRICE_FEEDS } = await import('../demo/demoFeeds.js');
  const started = Date.now();
  await generateDemoVenue({
    outDir: paths.demo,
    fills: flags.fills ?? DEFAULT_DEMO_FILLS,
    seed: flags.seed ?? 1,
    protocolV2: true,
  });
  process.stderr.write(
    `demo: generated ${flags.fills ?? DEFAULT_DEMO_FILLS} fills in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  if (!existsSync(paths.config))
    writeFileSync(paths.config, JSON.stringify({ addresses: { priceFeeds: DEMO_PRICE_FEEDS } }, null, 2) + '\n');
  await ingestCommand({
    data: flags.data,
    capture: join(paths.demo, 'capture.ndjson'),
    metadata: join(paths.demo, 'markets.json'),
    workers: flags.workers,
  });
  await profilesCommand({ data: flags.data, file: join(paths.demo, 'profiles.json') });
  return true;
}
