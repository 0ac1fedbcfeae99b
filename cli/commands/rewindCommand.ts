// `tally rewind --to-block N`: the only way state moves backward. Holding the log's writer lock (so no fold runs
// meanwhile: one that does makes the rewind refuse, naming its process), it folds the log through N into a scratch
// directory, rolls its board up, moves it into the state directory in place of the old state, and then cuts the
// log after N. The old state file is never written over while mapped: a server serving it follows the rewind at
// its next request (engine/state/stateReplacement.ts). Each step leaves a consistent data directory if the rewind
// dies: before the move, the old state and whole log; after it, the rewound state behind a longer log, which
// `tally ingest` folds on (or a second rewind cuts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RefusedError } from '../../engine/refusedError.js';
import { dataPaths } from '../../engine/dataDir.js';
import { openEventLog } from '../../engine/log/eventLog.js';
import { replaceState } from '../../engine/state/replaceState.js';
import { createScratchDir } from './createScratchDir.js';
import { foldIntoScratch } from './foldIntoScratch.js';
import { rollUpBoardOnce } from '../rollUpBoard.js';

export async function rewindCommand(flags: { data: string; toBlock: number; workers?: number }): Promise<void> {
  const paths = dataPaths(flags.data);
  // Opening the log would create it: a mistyped directory would become an empty venue "rewound" to nothing.
  if (!existsSync(paths.log)) throw new RefusedError(`${flags.data} holds no venue (no ${paths.log})`);
  const log = openEventLog({ dir: paths.log });
  try {
    const scratch = createScratchDir(paths.root, 'rewind');
    try {
      const rewound = join(scratch.dir, 'state');
      const { store, runner } = await foldIntoScratch({
        data: flags.data,
        stateDir: rewound,
        toBlock: flags.toBlock,
        workers: flags.workers,
        label: 'rewind',
      });
      const block = runner.cursor().block;
      await runner.close();
      try {
        await rollUpBoardOnce({ ...paths, state: rewound }, 'rewind');
      } finally {
        await store.close();
      }
      await replaceState(paths.state, rewound, join(scratch.dir, 'replaced'));
      log.truncateAfter(flags.toBlock);
      process.stderr.write(`rewind: state as of block ${block}\n`);
    } finally {
      scratch.remove();
    }
  } finally {
    log.close();
  }
}
