// One phase of the fold benchmark, in its own process so that its peak RSS and CPU time are its own:
//   ceiling: read the capture and scan each line into its fields, nothing else (the limit a user would name);
//   fold: capture -> log -> committed state;
//   logCeiling: read the fold's log and decode its frames, nothing else (the limit of a refold);
//   refold: the fold's log -> a new committed state, as replay, verify and rewind fold it.
// `logs` counts chain logs for the capture's phases and the log's events for the log's.
// Prints one JSON line: { logs, seconds, cpuSeconds, maxRssMiB, fills, stateBytes, marginal, rss, handOffSeconds,
// releases }. CPU is user + system time of the whole process, so every thread (reader, wallet workers, LMDB's
// writer) counts. `marginal`: the fold's rate, CPU and bytes written and dirtied (ioBytes) per log over each tenth
// of the logs of this run (from the progress of each batch), so that flatness needs no second run; `rss`: the peaks
// of the anonymous (heaps, malloc) and the file-backed (the state map's resident pages) parts of resident memory,
// sampled from /proc every 100 ms; `handOffSeconds`: the backfill's hand-off (0 for a live fold), of it
// `handOffCollectSeconds` reading the working table into runs (the rest loads them); `releases`: the state map's
// releases.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { foldIntoScratch } from '../cli/commands/foldIntoScratch.js';
import { openVenue } from '../cli/openVenue.js';
import { openEventLog } from '../engine/log/eventLog.js';
import { createStateReader } from '../engine/state/stateReader.js';
import { ingestCapture } from '../replay/ingest/ingestCapture.js';
import { parseCaptureLine } from '../replay/source/parseCaptureLine.js';
import { lineText, readLines } from '../replay/source/readLines.js';
import { createCaptureLineScanner } from '../replay/source/scanCaptureLine.js';

const [phase, capture, config, dataDir, workers, mode] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  'backfill' | 'live',
];
const backfill = mode !== 'live';
const started = process.hrtime.bigint();
// From here: the module loading before it is start-up, not work on the capture.
const before = process.resourceUsage();
let logs = 0;
let fills = 0;
let stateBytes = 0;
let handOffSeconds = 0;
let handOffCollectSeconds = 0;
let releases = 0;

/**
 * What this process has written so far (/proc/self/io): `written`, the bytes it handed to write calls (wchar: LMDB's
 * page writes, the log's appends, the hand-off's run files), the fold's own work; `dirtied`, the page cache's bytes
 * it made dirty (write_bytes), which also counts how often the kernel wrote them back in between (each write-back
 * makes the next write to the page count again, a whole large folio at a time), so it rises as the page cache fills.
 */
const ioBytes = () => {
  const io = readFileSync('/proc/self/io', 'latin1');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1] ?? 0);
  return { written: field('wchar'), dirtied: field('write_bytes') };
};
const ioBefore = ioBytes();

/** Where the run was after a batch: logs read, seconds, CPU seconds and bytes written and dirtied since the start. */
interface Sample {
  logs: number;
  seconds: number;
  cpuSeconds: number;
  written: number;
  dirtied: number;
}
const sample = (at: number): Sample => {
  const usage = process.resourceUsage();
  const io = ioBytes();
  return {
    logs: at,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    cpuSeconds: (usage.userCPUTime + usage.systemCPUTime - before.userCPUTime - before.systemCPUTime) / 1e6,
    written: io.written - ioBefore.written,
    dirtied: io.dirtied - ioBefore.dirtied,
  };
};
const samples: Sample[] = [];
/** Rate, CPU and bytes written and dirtied per log between two samples. */
const between = (from: Sample, to: Sample) => ({
  logsPerSecond: (to.logs - from.logs) / (to.seconds - from.seconds),
  cpuMicrosPerLog: ((to.cpuSeconds - from.cpuSeconds) * 1e6) / (to.logs - from.logs),
  writtenBytesPerLog: (to.written - from.written) / (to.logs - from.logs),
  dirtiedBytesPerLog: (to.dirtied - from.dirtied) / (to.logs - from.logs),
});
/**
 * Each tenth of the logs: from the last sample at or before its start to the first at or past its end (the
 * samples come a batch apart). The last tenth ends with the fold, hand-off included.
 */
function marginal(all: Sample[]) {
  const end = all.at(-1)!;
  const tenths = Array.from({ length: 10 }, (_, i) => {
    const from = all.findLast((s) => s.logs <= (end.logs * i) / 10) ?? all[0]!;
    const to = i === 9 ? end : (all.find((s) => s.logs >= (end.logs * (i + 1)) / 10) ?? end);
    return between(from, to);
  });
  return { firstTenth: tenths[0]!, lastTenth: tenths[9]!, tenths };
}

const rss = { anonMiB: 0, fileMiB: 0 };
const readRss = () => {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  rss.anonMiB = Math.max(rss.anonMiB, kib('RssAnon') / 1024);
  rss.fileMiB = Math.max(rss.fileMiB, kib('RssFile') / 1024);
};
if (phase === 'ceiling') {
  const scan = createCaptureLineScanner();
  for (const text of readLines(capture)) {
    if (text.end === text.start) continue;
    // Lines the fast scanner does not take are parsed as JSON, as ingest does.
    if (scan(text.buffer, text.start, text.end) === null) parseCaptureLine(lineText(text));
    logs++;
  }
} else if (phase === 'logCeiling') {
  const log = openEventLog({ dir: join(dataDir, 'log'), readOnly: true });
  for (const block of log.read(-1)) logs += block.events.length;
  log.close();
} else if (phase === 'refold') {
  const stateDir = join(dataDir, 'refold-state');
  const { store, runner } = await foldIntoScratch({
    data: dataDir,
    stateDir,
    label: 'refold',
    workers: Number(workers),
    backfill,
  });
  const cursor = createStateReader(store).cursor();
  logs = cursor.events;
  fills = cursor.fills;
  await runner.close();
  await store.close();
} else {
  mkdirSync(dataDir, { recursive: true });
  copyFileSync(config, join(dataDir, 'config.json'));
  const venue = openVenue(dataDir, { workers: Number(workers), backfill });
  samples.push(sample(0));
  const sampler = setInterval(readRss, 100);
  const result = await ingestCapture({
    capturePath: capture,
    configPath: venue.paths.config,
    store: venue.store,
    log: venue.log,
    runner: venue.runner,
    onProgress: (progress) => samples.push(sample(progress.logs)),
  });
  clearInterval(sampler);
  readRss();
  logs = result.logs;
  samples.push(sample(logs));
  handOffSeconds = result.handOff?.seconds ?? 0;
  handOffCollectSeconds = result.handOff?.collectSeconds ?? 0;
  releases = venue.runner.releases();
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
    marginal: phase === 'fold' ? marginal(samples) : null,
    rss: phase === 'fold' ? rss : null,
    handOffSeconds,
    handOffCollectSeconds,
    releases,
  }),
);
