// `tally devnet [--port P] [--data DIR] [--pace N] [--capture FILE] [--start-block N]`: a local JSON-RPC node
// serving a venue's chain, so that `run`, `capture`, `ingest --rpc` and `publish --rpc` can be tried without
// Polygon. By default the chain is the demo's (DIR/demo/capture.ndjson; generated, not folded, into an empty data
// directory), its contracts at their Polygon addresses, its price feeds behind the Polygon proxies. The head starts
// six hours of chain time before the capture's end and moves at `pace` chain seconds a second, so a follower sees
// new blocks; until SIGINT or SIGTERM.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadVenueAddresses } from '../../engine/chain/loadVenueAddresses.js';
import type { VenueAddresses } from '../../engine/chain/venueAddresses.js';
import { dataPaths } from '../../engine/dataDir.js';
import { RefusedError } from '../../engine/refusedError.js';
import { createDevnetChain } from '../../replay/devnet/devnetChain.js';
import { indexCapture } from '../../replay/devnet/indexCapture.js';
import { devnetUrl, serveDevnet, type DevnetContracts } from '../../replay/devnet/serveDevnet.js';
import { isEmptyDataDir } from '../openVenue.js';
import { listenError } from '../../api/listenError.js';

export interface DevnetFlags {
  data: string;
  capture?: string;
  host: string;
  port: number;
  pace: number;
  startBlock?: number;
  fills?: number;
}

/** Every venue contract has code; a feed proxy answers its aggregators, by phase, and they have code too. */
export function devnetContracts(addresses: VenueAddresses): DevnetContracts {
  const code = new Set<string>();
  for (const value of Object.values(addresses)) if (typeof value === 'string') code.add(value.toLowerCase());
  const proxies = new Map<string, string[]>();
  for (const [proxy, asset] of Object.entries(addresses.feedProxies)) {
    const aggregators = Object.entries(addresses.priceFeeds)
      .filter(([, feedAsset]) => feedAsset === asset)
      .map(([aggregator]) => aggregator.toLowerCase())
      .sort();
    if (aggregators.length === 0) continue;
    proxies.set(proxy.toLowerCase(), aggregators);
    code.add(proxy.toLowerCase());
    for (const aggregator of aggregators) code.add(aggregator);
  }
  return { code, proxies };
}

async function demoCapture(data: string, fills: number | undefined): Promise<string> {
  const paths = dataPaths(data);
  const capture = join(paths.demo, 'capture.ndjson');
  if (existsSync(capture)) return capture;
  if (!isEmptyDataDir(data))
    throw new RefusedError(`devnet: ${data} holds a venue but no demo capture (${capture}): give --capture FILE`);
  mkdirSync(paths.demo, { recursive: true });
  // Loaded on demand, as `tally demo` does: the simulator is needed only to make the chain.
  const { generateDemoVenue } = await import('../demo/generateDemoVenue.js');
  const { DEMO_PRICE_FEEDS } = await import('../demo/demoFeeds.js');
  process.stderr.write(`devnet: generating the demo venue into ${paths.demo} (not folded)\n`);
  await generateDemoVenue({ outDir: paths.demo, fills: fills ?? 200_000, seed: 1, protocolV2: true });
  if (!existsSync(paths.config))
    writeFileSync(paths.config, JSON.stringify({ addresses: { priceFeeds: DEMO_PRICE_FEEDS } }, null, 2) + '\n');
  return capture;
}

export async function devnetCommand(flags: DevnetFlags): Promise<void> {
  const capture = flags.capture ?? (await demoCapture(flags.data, flags.fills));
  if (!existsSync(capture)) throw new RefusedError(`devnet: --capture ${capture}: no such file`);
  const started = Date.now();
  const index = indexCapture(capture);
  if (index.blockCount === 0) throw new RefusedError(`devnet: ${capture} holds no log line`);
  const first = index.blocks[0]!;
  const last = index.blocks[index.blockCount - 1]!;
  if (flags.startBlock !== undefined && flags.startBlock > last)
    throw new RefusedError(`devnet: --start-block ${flags.startBlock} is past the capture's last block ${last}`);
  const chain = createDevnetChain(index, { pace: flags.pace, startBlock: flags.startBlock, now: Date.now });
  const server = serveDevnet(chain, devnetContracts(loadVenueAddresses(dataPaths(flags.data).config)));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(flags.port, flags.host, resolve);
    });
  } catch {
    chain.close();
    // Node's error names the cause; listenError words it as `serve` does.
    throw await listenError(flags.host, flags.port);
  }
  const url = devnetUrl(server);
  process.stderr.write(
    `devnet: ${index.lineCount} logs in blocks ${first}..${last} of ${capture}, indexed in ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s; head at block ${chain.latest()}, ` +
      (flags.pace === 0 ? 'the whole capture at once\n' : `${flags.pace} chain seconds a second\n`),
  );
  process.stdout.write(
    `devnet: serving chain 137 at ${url}\n` +
      `  follow it:  tally run --rpc ${url} --data data/devnet-run --start-block ${first} --port 8081\n` +
      `  capture it: tally capture --rpc ${url} --from-block ${first} --out devnet.ndjson\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  chain.close();
}
