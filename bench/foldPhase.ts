// One phase of the fold benchmark, in its own process so that its peak RSS and CPU time are its own:
//   ceiling: read the capture and scan each line into its fields, nothing else (the limit a user would name);
//   fold: capture -> log -> committed state.
// Prints one JSON line: { logs, seconds, cpuSeconds, maxRssMiB, fills, stateBytes }. CPU is user + system time
// of the whole process, so every thread (reader, wallet workers, LMDB's writer) counts.
import { copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openVenue } from '../cli/openVenue.js';
import { createStateReader } from '../engine/state/stateReader.js';
import { ingestCapture } from '../replay/ingest/ingestCapture.js';
import { parseCaptureLine } from '../replay/source/parseCaptureLine.js';
import { lineText, readLines } from '../replay/source/readLines.js';
import { createCaptureLineScanner } from '../replay/source/scanCaptureLine.js';

const [phase, capture, config, dataDir, workers] = process.argv.slice(2) as [string, string, string, string, string];
const started = process.hrtime.bigint();
// From here: the module loading before it is start-up, not work on the capture.
const before = process.resourceUsage();
let logs = 0;
let fills = 0;
let stateBytes = 0;
if (phase === 'ceiling') {
  const scan = createCaptureLineScanner();
  for (const text of readLines(capture)) {
    if (text.end === text.start) continue;
    // Lines the fast scanner does not take are parsed as JSON, as ingest does.
    if (scan(text.buffer, text.start, text.end) === null) parseCaptureLine(lineText(text));
    logs++;
  }
} else {
  mkdirSync(dataDir, { recursive: true });
  copyFileSync(config, join(dataDir, 'config.json'));
  const venue = openVenue(dataDir, { workers: Number(workers) });
  const result = await ingestCapture({
    capturePath: capture,
    configPath: venue.paths.config,
    store: venue.store,
    log: venue.log,
    runner: venue.runner,
  });
  logs = result.logs;
  fills = createStateReader(venue.store).cursor().fills;
  await venue.close();
  // Bytes the state's files take on disk (allocated blocks, not the map's reserved size).
  for (const name of readdirSync(venue.paths.state)) stateBytes += statSync(join(venue.paths.state, name)).blocks * 512;
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const usage = process.resourceUsage();
console.log(
  JSON.stringify({
    logs,
    seconds,
    cpuSeconds: (usage.userCPUTime + usage.systemCPUTime - before.userCPUTime - before.systemCPUTime) / 1e6,
    maxRssMiB: usage.maxRSS / 1024,
    fills,
    stateBytes,
  }),
);
