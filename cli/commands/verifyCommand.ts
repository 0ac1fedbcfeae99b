// `tally verify [--capture FILE]`: the log's own checksums, then a refold into a scratch directory whose per-block
// checksums must equal the stored ones; the first block that differs is named. A state that is merely behind its
// log (a killed ingest, a full disk) is told apart from a damaged one, and from one a running fold is catching up
// (compared through its cursor, and said). With --capture, the log is also checked to hold every venue event of
// that capture up to its last block. Exit codes: 0 all match, 1 a difference, 3 the state is behind its log and no
// process is folding it.
import { existsSync } from 'node:fs';
import { findLogGaps } from '../../replay/ingest/findLogGaps.js';
import { RefusedError } from '../../engine/refusedError.js';
import { dataPaths } from '../../engine/dataDir.js';
import { EMPTY_CURSOR, readFoldCursor, type BlockRecord } from '../../engine/state/foldCursor.js';
import { openEventLog, type EventLog, type EventLogHead } from '../../engine/log/eventLog.js';
import { logWriterPid } from '../../engine/log/logLock.js';
import { openStateStore, type StateStore } from '../../engine/state/openStateStore.js';
import { isStateReplaced } from '../../engine/state/stateReplacement.js';
import { isStateLayoutCurrent, STATE_LAYOUT } from '../../engine/state/stateLayout.js';
import { loadFoldOptions } from '../../engine/foldOptions.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { createScratchDir } from './createScratchDir.js';
import { foldIntoScratch } from './foldIntoScratch.js';
import { checkInputFile } from '../checkInputFile.js';

export const EXIT_STATE_BEHIND = 3;

function checkCapture(log: EventLog, capture: string, config: string): boolean {
  const report = findLogGaps({ capturePath: capture, configPath: config, log });
  if (report.firstGap) {
    const { block, missing } = report.firstGap;
    console.log(
      `verify: FAILED: the log lacks ${missing.length} venue log${missing.length > 1 ? 's' : ''} of block ${block} that ${capture} holds ` +
        `(log index ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}): an ingest stopped inside that block. ` +
        `Run tally rewind --to-block ${block - 1}, then tally ingest --capture ${capture}`,
    );
    return false;
  }
  console.log(
    `verify: the log holds every venue log of ${capture} through its last block (${report.compared} blocks compared` +
      `${report.beyondLog ? `; ${report.beyondLog} later blocks of the capture are not ingested yet` : ''})`,
  );
  return true;
}

export async function verifyCommand(flags: { data: string; capture?: string; workers?: number }): Promise<number> {
  const paths = dataPaths(flags.data);
  if (!existsSync(paths.log)) throw new RefusedError(`${flags.data} holds no venue (no ${paths.log})`);
  if (flags.capture) checkInputFile(flags.capture, 'capture');
  // The state is read first, and compared through its cursor: an ingest appends a block to the log before it folds
  // it, and changes neither the log up to the cursor nor the state's records up to it, so an ingest folding
  // meanwhile leaves the comparison whole. No state directory: nothing folded yet (a state behind its log).
  const stored = existsSync(paths.state) ? openStateStore({ dir: paths.state, readOnly: true }) : null;
  try {
    if (stored && !isStateLayoutCurrent(stored, loadFoldOptions(paths.config))) {
      console.log(
        `verify: the state in ${paths.state} was folded with another state layout than this tally's (${STATE_LAYOUT}) or other options in config.json; fold it again first (tally ingest does so)`,
      );
      return 1;
    }
    // The cursor and the block records through it in one turn, so one read snapshot: read again after the refold,
    // the records once came from an older snapshot than the cursor (a CI run named blocks the state had folded).
    let cursor = stored ? readFoldCursor(stored) : EMPTY_CURSOR;
    let original = stored ? recordsThrough(stored, cursor.block) : [];
    // The cursor's block always has its record: records ending before it came from an older snapshot than the
    // cursor (seen in a full test run, a backfilling ingest committing a block a batch): read both again.
    for (let tries = 0; stored && cursor.block >= 0 && original.at(-1)?.block !== cursor.block && tries < 10; tries++) {
      stored.env.resetReadTxn();
      cursor = readFoldCursor(stored);
      original = recordsThrough(stored, cursor.block);
    }
    const log = openEventLog({ dir: paths.log, readOnly: true });
    let head: EventLogHead;
    try {
      const logCheck = log.verify();
      if (!logCheck.ok) {
        console.log(`verify: log segment ${logCheck.segment} is damaged: ${logCheck.reason}`);
        return 1;
      }
      if (flags.capture && !checkCapture(log, flags.capture, paths.config)) return 1;
      head = log.head();
    } finally {
      log.close();
    }
    const scratch = createScratchDir(paths.root, 'verify');
    let refolded: BlockRecord[];
    try {
      const { store, runner } = await foldIntoScratch({
        data: flags.data,
        stateDir: scratch.dir,
        toBlock: cursor.block,
        workers: flags.workers,
        label: 'verify',
      });
      refolded = [...createStateReader(store).blocks()];
      await runner.close();
      await store.close();
    } finally {
      scratch.remove();
    }
    // A rewind moves a new state in before it cuts the log: the one read here may be gone, and the log shorter.
    if (stored && isStateReplaced(stored.dbs.meta, paths.state)) {
      throw new RefusedError(
        `a rewind replaced the state in ${paths.state} while verify compared it: run verify again`,
      );
    }
    return compareBlocks(original, refolded, { data: flags.data, head, writer: logWriterPid(paths.log) });
  } finally {
    await stored?.close();
  }
}

function recordsThrough(store: StateStore, block: number): BlockRecord[] {
  const records: BlockRecord[] = [];
  for (const record of createStateReader(store).blocks()) {
    if (record.block > block) break;
    records.push(record);
  }
  return records;
}

/**
 * The stored block records through the state's cursor against the refold of the log through it: different at a
 * block, or equal, with the log holding more (a fold under way when a process holds the log, else a state behind).
 */
function compareBlocks(
  original: BlockRecord[],
  refolded: BlockRecord[],
  context: { data: string; head: EventLogHead; writer: number | null },
): number {
  let matched = 0;
  while (matched < original.length || matched < refolded.length) {
    const a = original[matched];
    const b = refolded[matched];
    if (a?.block !== b?.block || a?.checksum !== b?.checksum) {
      const where =
        a && b && a.block === b.block
          ? `block ${a.block}: stored ${a.checksum} refolded ${b.checksum}`
          : !b || (a && a.block < b.block)
            ? `block ${a!.block}, which is in the stored state only (the log lacks it)`
            : `block ${b.block}, which is in the refold only`;
      console.log(`verify: FAILED at ${where} (${matched} blocks matched before it)`);
      return 1;
    }
    matched++;
  }
  const through = matched > 0 ? `block ${original[matched - 1]!.block}` : 'no block yet';
  const checksum = matched > 0 ? original[matched - 1]!.checksum : '-';
  const beyond = context.head.blocks - matched;
  if (beyond > 0 && context.writer === null) {
    console.log(
      `verify: the state is behind its log: folded through ${through}, the log holds ${beyond} more blocks ` +
        `through block ${context.head.block}; the ${matched} folded blocks match. tally ingest --data ${context.data} folds the rest`,
    );
    return EXIT_STATE_BEHIND;
  }
  const running =
    beyond > 0
      ? `; a fold is running (process ${context.writer} holds the log): the ${beyond} blocks it has ` +
        `appended beyond ${through} are not compared`
      : '';
  console.log(`verify: ok, ${matched} blocks, checksum ${checksum}${running}`);
  return 0;
}
