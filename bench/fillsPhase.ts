// One side of the fills-feed benchmark, in its own process so that its memory and CPU are its own:
//   serve DATA: the HTTP API over DATA's state (printing its port), until SIGTERM;
//   ceiling STATE MARKETS FROM TO: the same rows read through the state reader and counted, nothing served;
//     prints { rows, seconds, cpuSeconds }.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../cli/commands/serveCommand.js';
import { openOffchainStore } from '../engine/offchain/openOffchainStore.js';
import { openStateStore } from '../engine/state/openStateStore.js';
import { createStateReader } from '../engine/state/stateReader.js';

const [phase, ...args] = process.argv.slice(2) as [string, ...string[]];
if (phase === 'serve') {
  const [data] = args as [string];
  // The synthetic state has no log: the server is handed its stores, as `tally run` does.
  const stores = {
    store: openStateStore({ dir: join(data, 'state'), readOnly: true }),
    offchain: openOffchainStore({ dir: join(data, 'offchain') }),
  };
  const server = await startServer({ data, host: '127.0.0.1', port: 0, stores });
  console.log(JSON.stringify({ port: server.port }));
  process.once('SIGTERM', () => {
    server.close();
    process.exit(0);
  });
} else {
  const [stateDir, marketsFile, from, to] = args as [string, string, string, string];
  const markets = JSON.parse(readFileSync(marketsFile, 'utf8')) as string[];
  const store = openStateStore({ dir: stateDir, readOnly: true });
  const state = createStateReader(store);
  const before = process.resourceUsage();
  const started = process.hrtime.bigint();
  const first = state.firstBlockFrom(Number(from))!;
  const end = state.firstBlockFrom(Number(to));
  let rows = 0;
  // The route's read path: the same cursor, each fill decoded, nothing written.
  const cursor = state.marketsFillCursor(markets, { from: { block: first, logIndex: 0 }, endBlock: end });
  while (cursor.next()) rows++;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const usage = process.resourceUsage();
  console.log(
    JSON.stringify({
      rows,
      seconds,
      cpuSeconds: (usage.userCPUTime + usage.systemCPUTime - before.userCPUTime - before.systemCPUTime) / 1e6,
    }),
  );
  await store.close();
}
