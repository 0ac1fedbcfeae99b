// `tally verify [--capture FILE]`: the log's own checksums, then a refold into a scratch directory whose per-block
// checksums must equal the stored ones; the first block that differs is named. A state that is merely behind its
// log (a killed ingest, a full disk) is told apart from a damaged one. With --capture, the log is also checked
// to hold every venue event of that capture up to its last block. Exit codes: 0 all match, 1 a difference,
// 3 the state is behind its log.
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { findLogGaps } from '../../replay/ingest/findLogGaps.js';
import { CommandError } from '../../engine/commandError.js';
import { dataPaths } from '../../engine/dataDir.js';
import type { BlockRecord } from '../../engine/state/foldCursor.js';
import { isProcessAlive } from '../../engine/isProcessAlive.js';
import { openEventLog, type EventLog } from '../../engine/log/eventLog.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { isStateLayoutCurrent, STATE_LAYOUT } from '../../engine/state/stateLayout.js';
import { loadFoldOptions } from '../../engine/foldOptions.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { foldIntoScratch } from './foldIntoScratch.js';
import { checkInputFile } from '../checkInputFile.js';

export const EXIT_STATE_BEHIND = 3;
// No dot in the name: lmdb-js takes a path with an extension for a file, not a directory.
const SCRATCH = /^verify-scratch-(\d+)$/;

/**
 * The refold's scratch directory, inside the data directory (the same disk as the state it copies). Scratch
 * directories of verifies that were killed are removed first; a signal removes this one on the way out.
 */
function createScratch(root: string): { dir: string; remove(): void } {
  for (const name of readdirSync(root)) {
    const match = SCRATCH.exec(name);
    if (match && !isProcessAlive(Number(match[1]))) rmSync(join(root, name), { recursive: true, force: true });
  }
  const dir = join(root, `verify-scratch-${process.pid}`);
  mkdirSync(dir);
  const onSignal = (signal: NodeJS.Signals) => {
    rmSync(dir, { recursive: true, force: true });
    // A fold worker opening the scratch state at that very moment may create its files again: wait a moment
    // (this thread dispatches nothing meanwhile) and remove what it left.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    rmSync(dir, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    dir,
    remove() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function checkCapture(log: EventLog, capture: string, config: string): boolean {
  const report = findLogGaps({ capturePath: capture, configPath: config, log });
  if (report.firstGap) {
    const { block, missing } = report.firstGap;
    console.log(`verify: FAILED: the log lacks ${missing.length} venue log${missing.length > 1 ? 's' : ''} of block ${block} that ${capture} holds ` +
      `(log index ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}): an ingest stopped inside that block. ` +
      `Run tally rewind --to-block ${block - 1}, then tally ingest --capture ${capture}`);
    return false;
  }
  console.log(`verify: the log holds every venue log of ${capture} through its last block (${report.compared} blocks compared` +
    `${report.beyondLog ? `; ${report.beyondLog} later blocks of the capture are not ingested yet` : ''})`);
  return true;
}

export async function verifyCommand(flags: { data: string; capture?: string; workers?: number }): Promise<number> {
  const paths = dataPaths(flags.data);
  if (!existsSync(paths.log)) throw new CommandError(`${flags.data} holds no venue (no ${paths.log})`);
  if (flags.capture) checkInputFile(flags.capture, 'capture');
  const log = openEventLog({ dir: paths.log, readOnly: true });
  try {
    const logCheck = log.verify();
    if (!logCheck.ok) {
      console.log(`verify: log segment ${logCheck.segment} is damaged: ${logCheck.reason}`);
      return 1;
    }
    if (flags.capture && !checkCapture(log, flags.capture, paths.config)) return 1;
  } finally {
    log.close();
  }
  // No state directory: nothing folded yet, which compares as a state behind its log.
  const stored = existsSync(paths.state) ? openStateStore({ dir: paths.state, readOnly: true }) : null;
  const scratch = createScratch(paths.root);
  try {
    if (stored && !isStateLayoutCurrent(stored, loadFoldOptions(paths.config))) {
      console.log(`verify: the state in ${paths.state} was folded with another state layout than this tally's (${STATE_LAYOUT}) or other options in config.json; fold it again first (tally ingest does so)`);
      return 1;
    }
    const { store, runner } = await foldIntoScratch({ data: flags.data, stateDir: scratch.dir, workers: flags.workers, label: 'verify' });
    const refolded = [...createStateReader(store).blocks()];
    await runner.close();
    await store.close();
    const original = stored ? [...createStateReader(stored).blocks()] : [];
    return compareBlocks(original, refolded, flags.data);
  } finally {
    scratch.remove();
    await stored?.close();
  }
}

/** Stored against refolded block records: equal, behind (a prefix of the refold), or different at a block. */
function compareBlocks(original: BlockRecord[], refolded: BlockRecord[], data: string): number {
  let matched = 0;
  while (matched < original.length && matched < refolded.length) {
    const a = original[matched]!;
    const b = refolded[matched]!;
    if (a.block !== b.block || a.checksum !== b.checksum) {
      const where = a.block === b.block ? `block ${a.block}: stored ${a.checksum} refolded ${b.checksum}`
        : `block ${Math.min(a.block, b.block)}, which is in the ${a.block < b.block ? 'stored state' : 'refold'} only`;
      console.log(`verify: FAILED at ${where} (${matched} blocks matched before it)`);
      return 1;
    }
    matched++;
  }
  if (matched < original.length) {
    console.log(`verify: FAILED: the state holds ${original.length - matched} blocks the log does not, from block ${original[matched]!.block}`);
    return 1;
  }
  if (matched < refolded.length) {
    const folded = matched > 0 ? `block ${original[matched - 1]!.block}` : 'no block yet';
    console.log(`verify: the state is behind its log: folded through ${folded}, the log holds ${refolded.length - matched} more blocks ` +
      `through block ${refolded[refolded.length - 1]!.block}; the ${matched} folded blocks match. tally ingest --data ${data} folds the rest`);
    return EXIT_STATE_BEHIND;
  }
  console.log(`verify: ok, ${matched} blocks, checksum ${matched ? original[matched - 1]!.checksum : '-'}`);
  return 0;
}
