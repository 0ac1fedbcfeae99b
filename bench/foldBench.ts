// `npm run bench:fold -- --fills N [--workers W] [--runs R] [--live]`: end-to-end fold throughput (chain logs/s from
// capture file to committed state), CPU per log over all threads, peak RSS and state bytes per fill, against a
// ceiling measured in the same run: reading the same capture and scanning each line into its fields. Medians over
// R interleaved runs; and the fold's marginal rate, CPU and bytes written per log over each tenth of its logs (the
// last ends with the backfill's hand-off), its peak anonymous and file-backed memory and its map releases. Last line:
//   mode: backfill|live fold logs/s: X ceiling logs/s: Y fold cpu us/log: A ceiling cpu us/log: B peak rss MiB: Z
//   state bytes/fill: S first tenth logs/s: F last tenth logs/s: L last/first: R anon rss MiB: N file rss MiB: M
//   refold events/s: E log ceiling events/s: C written bytes/log first tenth: W last tenth: V hand-off s: H
// The refold (the fold's log into a new state, as replay, verify and rewind fold it) is measured beside the ingest,
// against reading and decoding the log's frames.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultWalletWorkers } from '../engine/fold/defaultWalletWorkers.js';
import { parseArgs } from 'node:util';
import { DEMO_PRICE_FEEDS } from '../cli/demo/demoFeeds.js';
import { generateDemoVenue } from '../cli/demo/generateDemoVenue.js';
import { recordBenchFigures } from './recordBenchFigures.js';
import { printTenths, runFoldPhase, type FoldPhase, type PhaseResult } from './foldPhaseRun.js';

const { values } = parseArgs({
  options: {
    fills: { type: 'string' },
    workers: { type: 'string' },
    runs: { type: 'string' },
    dir: { type: 'string' },
    live: { type: 'boolean' },
  },
});
const fills = Number(values.fills ?? 200_000);
const workers = values.workers === undefined ? defaultWalletWorkers() : Number(values.workers);
const runs = Number(values.runs ?? 3);
// A fold from nothing backfills (engine/README.md, Backfill); --live folds live from the start, to compare.
const mode: 'backfill' | 'live' = values.live ? 'live' : 'backfill';
const root = values.dir ?? join('bench', '.cache');
// The demo as `tally demo` makes it: the first ledger and the 2026 second one (Protocol V2 markets and combos).
const inputs = join(root, `demo-${fills}-v2`);
const capture = join(inputs, 'capture.ndjson');
const config = join(root, 'config.json');

mkdirSync(root, { recursive: true });
writeFileSync(config, JSON.stringify({ addresses: { priceFeeds: DEMO_PRICE_FEEDS } }));
if (!existsSync(join(inputs, 'demo.json'))) {
  mkdirSync(inputs, { recursive: true });
  console.log(`generating the demo capture with ${fills.toLocaleString('en-US')} fills into ${inputs}`);
  await generateDemoVenue({ outDir: inputs, fills, seed: 1, protocolV2: true });
}

const dataDir = join(root, 'fold-data');
/** The fold makes the data directory the log's phases then read. */
function phase(name: FoldPhase): PhaseResult {
  if (name === 'ceiling' || name === 'fold') rmSync(dataDir, { recursive: true, force: true });
  return runFoldPhase(name, { capture, config, dataDir, workers, mode });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const results: Array<{ ceiling: PhaseResult; fold: PhaseResult; logCeiling: PhaseResult; refold: PhaseResult }> = [];
for (let run = 0; run < runs; run++) {
  // Interleaved, so the machine's drift falls on both sides alike.
  const ceiling = phase('ceiling');
  const fold = phase('fold');
  const logCeiling = phase('logCeiling');
  const refold = phase('refold');
  rmSync(dataDir, { recursive: true, force: true });
  results.push({ ceiling, fold, logCeiling, refold });
  const { firstTenth, lastTenth } = fold.marginal!;
  printTenths(fold, mode);
  console.log(
    `run ${run + 1}: ${fold.logs.toLocaleString('en-US')} logs; fold ${fold.seconds.toFixed(2)} s, ${fold.cpuSeconds.toFixed(2)} s CPU, peak rss ${fold.maxRssMiB.toFixed(0)} MiB (anon ${fold.rss!.anonMiB.toFixed(0)}, file ${fold.rss!.fileMiB.toFixed(0)}); first tenth ${Math.round(firstTenth.logsPerSecond)} logs/s, last tenth ${Math.round(lastTenth.logsPerSecond)} logs/s; ceiling ${ceiling.seconds.toFixed(2)} s, ${ceiling.cpuSeconds.toFixed(2)} s CPU, peak rss ${ceiling.maxRssMiB.toFixed(0)} MiB; refold ${refold.logs.toLocaleString('en-US')} events ${refold.seconds.toFixed(2)} s, ${refold.cpuSeconds.toFixed(2)} s CPU, peak rss ${refold.maxRssMiB.toFixed(0)} MiB; log ceiling ${logCeiling.seconds.toFixed(2)} s`,
  );
}
const of = (side: 'ceiling' | 'fold' | 'logCeiling' | 'refold') => {
  const list = results.map((result) => result[side]);
  return {
    rate: Math.round(median(list.map((r) => r.logs / r.seconds))),
    cpuMicros: median(list.map((r) => (r.cpuSeconds * 1e6) / r.logs)),
    peak: Math.round(Math.max(...list.map((r) => r.maxRssMiB))),
  };
};
const fold = of('fold');
const ceiling = of('ceiling');
const refold = of('refold');
const logCeiling = of('logCeiling');
const foldSeconds = median(results.map((r) => r.fold.seconds));
const refoldSeconds = median(results.map((r) => r.refold.seconds));
const folds = results.map((result) => result.fold);
const tenth = (which: 'firstTenth' | 'lastTenth') => ({
  rate: Math.round(median(folds.map((r) => r.marginal![which].logsPerSecond))),
  cpuMicros: median(folds.map((r) => r.marginal![which].cpuMicrosPerLog)),
});
const firstTenth = tenth('firstTenth');
const lastTenth = tenth('lastTenth');
type IoFigure = 'writtenBytesPerLog' | 'dirtiedBytesPerLog';
const io = (figure: IoFigure, which: 'firstTenth' | 'lastTenth') =>
  median(folds.map((r) => r.marginal![which][figure]));
// Each run's own ratio, as for the rates.
const ioRatio = (figure: IoFigure) =>
  median(folds.map((r) => r.marginal!.lastTenth[figure] / Math.max(1, r.marginal!.firstTenth[figure])));
const written = (which: 'firstTenth' | 'lastTenth') => io('writtenBytesPerLog', which);
// Each run's own last/first ratio, so that the drift between runs does not enter it.
const flatness = median(folds.map((r) => r.marginal!.lastTenth.logsPerSecond / r.marginal!.firstTenth.logsPerSecond));
const peakAnon = Math.round(Math.max(...folds.map((r) => r.rss!.anonMiB)));
const peakFile = Math.round(Math.max(...folds.map((r) => r.rss!.fileMiB)));
const last = results.at(-1)!.fold;
const bytesPerFill = Math.round(last.stateBytes / Math.max(1, last.fills));
recordBenchFigures(
  `fold, ${fills.toLocaleString('en-US')} fills (${last.logs.toLocaleString('en-US')} logs), ${workers} worker(s)${mode === 'live' ? ', live' : ''}`,
  [
    [
      'fold logs/s (median)',
      fold.rate.toLocaleString('en-US'),
      `${(fold.rate / ceiling.rate).toFixed(2)}x the ceiling; ${(fold.rate / 250_000).toFixed(2)}x the 250,000 stretch`,
    ],
    ['ceiling logs/s (read + scan lines, median)', ceiling.rate.toLocaleString('en-US'), ''],
    [
      'fold CPU µs per log, all threads (median)',
      fold.cpuMicros.toFixed(2),
      `${(fold.cpuMicros / ceiling.cpuMicros).toFixed(2)}x the ceiling's`,
    ],
    ['ceiling CPU µs per log (median)', ceiling.cpuMicros.toFixed(2), ''],
    [
      'fold logs/s over the first tenth of the logs (median)',
      firstTenth.rate.toLocaleString('en-US'),
      `${firstTenth.cpuMicros.toFixed(2)} CPU µs per log`,
    ],
    [
      'fold logs/s over the last tenth of the logs (median)',
      lastTenth.rate.toLocaleString('en-US'),
      `${lastTenth.cpuMicros.toFixed(2)} CPU µs per log; ${flatness.toFixed(2)}x the first tenth's rate (median of each run's ratio)`,
    ],
    [
      'bytes written per log, first and last tenth (median; /proc/self/io wchar)',
      `${Math.round(written('firstTenth'))} and ${Math.round(written('lastTenth'))}`,
      `${ioRatio('writtenBytesPerLog').toFixed(2)}x (median of each run's ratio)`,
    ],
    [
      'page-cache bytes dirtied per log, first and last tenth (median; write_bytes)',
      `${Math.round(io('dirtiedBytesPerLog', 'firstTenth'))} and ${Math.round(io('dirtiedBytesPerLog', 'lastTenth'))}`,
      `${ioRatio('dirtiedBytesPerLog').toFixed(2)}x; rises with the kernel's write-backs as the page cache fills`,
    ],
    [
      'hand-off seconds (median; in the last tenth), of them collecting the runs',
      `${median(folds.map((r) => r.handOffSeconds)).toFixed(1)}, ${median(folds.map((r) => r.handOffCollectSeconds)).toFixed(1)}`,
      `map releases: ${median(folds.map((r) => r.releases))}`,
    ],
    ['fold peak RSS MiB (max)', String(fold.peak), `${(fold.peak / 1280).toFixed(2)}x the 1.25 GiB target`],
    ['fold peak anonymous RSS MiB (max; heaps, malloc)', String(peakAnon), ''],
    ['fold peak file-backed RSS MiB (max; the state map)', String(peakFile), ''],
    ['ceiling peak RSS MiB (max)', String(ceiling.peak), ''],
    [
      'refold events/s, log -> state (median)',
      refold.rate.toLocaleString('en-US'),
      `${(refold.rate / logCeiling.rate).toFixed(2)}x the log's ceiling; ${refoldSeconds.toFixed(1)} s against the ingest's ${foldSeconds.toFixed(1)} s`,
    ],
    ['log ceiling events/s (read + decode frames, median)', logCeiling.rate.toLocaleString('en-US'), ''],
    [
      'refold CPU µs per event, all threads (median)',
      refold.cpuMicros.toFixed(2),
      `${(refold.cpuMicros / logCeiling.cpuMicros).toFixed(2)}x the log ceiling's`,
    ],
    ['log ceiling CPU µs per event (median)', logCeiling.cpuMicros.toFixed(2), ''],
    ['refold peak RSS MiB (max)', String(refold.peak), ''],
    [
      'state bytes per fill on disk',
      bytesPerFill.toLocaleString('en-US'),
      `${(last.stateBytes / 1024 ** 2).toFixed(0)} MiB for ${last.fills.toLocaleString('en-US')} fills; ${(bytesPerFill / 250).toFixed(2)}x the 250-byte target`,
    ],
  ],
);
console.log(
  `mode: ${mode} fold logs/s: ${fold.rate} ceiling logs/s: ${ceiling.rate} fold cpu us/log: ${fold.cpuMicros.toFixed(2)} ceiling cpu us/log: ${ceiling.cpuMicros.toFixed(2)} peak rss MiB: ${fold.peak} state bytes/fill: ${bytesPerFill} first tenth logs/s: ${firstTenth.rate} last tenth logs/s: ${lastTenth.rate} last/first: ${flatness.toFixed(2)} anon rss MiB: ${peakAnon} file rss MiB: ${peakFile} refold events/s: ${refold.rate} log ceiling events/s: ${logCeiling.rate} written bytes/log first tenth: ${Math.round(written('firstTenth'))} last tenth: ${Math.round(written('lastTenth'))} hand-off s: ${median(folds.map((r) => r.handOffSeconds)).toFixed(1)}`,
);
