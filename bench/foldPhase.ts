// One phase of the fold benchmark, in its own process so its peak RSS is its own:
//   ceiling: read and decode the capture without folding;  fold: capture -> log -> committed state.
// Prints one JSON line: { logs, seconds, maxRssMiB }.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openVenue } from '../cli/openVenue.js';
import { createLogDecoder } from '../replay/decode/decodeLog.js';
import { ingestCapture } from '../replay/ingest/ingestCapture.js';
import { readCaptureBatches } from '../replay/source/readCaptureBatches.js';
import { loadVenueAddresses } from '../engine/chain/loadVenueAddresses.js';

const [phase, capture, config, dataDir, workers] = process.argv.slice(2) as [string, string, string, string, string];
const started = process.hrtime.bigint();
let logs = 0;
if (phase === 'ceiling') {
  const decoder = createLogDecoder(loadVenueAddresses(config));
  for (const batch of readCaptureBatches({ path: capture, decoder, afterBlock: -1 })) logs += batch.logs;
} else {
  mkdirSync(dataDir, { recursive: true });
  copyFileSync(config, join(dataDir, 'config.json'));
  const venue = openVenue(dataDir, { workers: Number(workers) });
  const result = await ingestCapture({
    capturePath: capture, configPath: venue.paths.config, store: venue.store, log: venue.log, runner: venue.runner,
  });
  logs = result.logs;
  await venue.close();
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(JSON.stringify({ logs, seconds, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
