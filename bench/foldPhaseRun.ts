// Runs one phase of the fold benchmark (foldPhase.ts) in a process of its own and reads its figures: shared by
// bench:fold and bench:fold-stream.
import { spawnSync } from 'node:child_process';

export type FoldPhase = 'ceiling' | 'fold' | 'logCeiling' | 'refold';

/** The fold's figures over a stretch of its logs. */
export interface Stretch {
  logsPerSecond: number;
  cpuMicrosPerLog: number;
  /** Bytes the fold handed to write calls (wchar) and bytes of the page cache it dirtied (write_bytes): foldPhase. */
  writtenBytesPerLog: number;
  dirtiedBytesPerLog: number;
}

export interface PhaseResult {
  logs: number;
  seconds: number;
  cpuSeconds: number;
  maxRssMiB: number;
  fills: number;
  stateBytes: number;
  /** The fold's: over the first and the last tenth of its logs, and each tenth. */
  marginal: { firstTenth: Stretch; lastTenth: Stretch; tenths: Stretch[] } | null;
  /** The fold's peak anonymous and file-backed resident memory. */
  rss: { anonMiB: number; fileMiB: number } | null;
  handOffSeconds: number;
  /** Of the hand-off: reading the working table into runs (the rest loads them). */
  handOffCollectSeconds: number;
  releases: number;
}

export interface PhaseInputs {
  capture: string;
  config: string;
  dataDir: string;
  workers: number;
  mode: 'backfill' | 'live';
}

export function runFoldPhase(name: FoldPhase, inputs: PhaseInputs): PhaseResult {
  const script = new URL('./foldPhase.ts', import.meta.url).pathname;
  const { capture, config, dataDir, workers, mode } = inputs;
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', script, name, capture, config, dataDir, String(workers), mode],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`${name} phase failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!);
}

/** Prints the fold's tenths, its hand-off and its map releases. */
export function printTenths(fold: PhaseResult, mode: PhaseInputs['mode']): void {
  fold.marginal!.tenths.forEach((tenth, i) =>
    console.log(
      `  tenth ${i + 1}: ${Math.round(tenth.logsPerSecond)} logs/s, ${tenth.cpuMicrosPerLog.toFixed(2)} CPU µs/log, ${Math.round(tenth.writtenBytesPerLog)} bytes written/log (${Math.round(tenth.dirtiedBytesPerLog)} dirtied)`,
    ),
  );
  console.log(
    `  ${mode}: hand-off ${fold.handOffSeconds.toFixed(1)} s (collect ${fold.handOffCollectSeconds.toFixed(1)}); map releases ${fold.releases}`,
  );
}
