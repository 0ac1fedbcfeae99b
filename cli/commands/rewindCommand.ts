// `tally rewind --to-block N`: the only way state moves backward. Truncates the log after N and refolds the
// state from it (stop the server first: it maps the old state).
import { existsSync, rmSync } from 'node:fs';
import { CommandError } from '../../engine/commandError.js';
import { dataPaths } from '../../engine/dataDir.js';
import { openEventLog } from '../../engine/log/eventLog.js';
import { foldIntoScratch } from './foldIntoScratch.js';
import { rollUpBoardOnce } from '../rollUpBoard.js';

export async function rewindCommand(flags: { data: string; toBlock: number; workers?: number }): Promise<void> {
  const paths = dataPaths(flags.data);
  // Opening the log would create it: a mistyped directory would become an empty venue "rewound" to nothing.
  if (!existsSync(paths.log)) throw new CommandError(`${flags.data} holds no venue (no ${paths.log})`);
  const log = openEventLog({ dir: paths.log });
  try {
    log.truncateAfter(flags.toBlock);
  } finally {
    log.close();
  }
  rmSync(paths.state, { recursive: true, force: true });
  const { store, runner } = await foldIntoScratch({ data: flags.data, stateDir: paths.state, workers: flags.workers, label: 'rewind' });
  const block = runner.cursor().block;
  await runner.close();
  try {
    await rollUpBoardOnce(paths, 'rewind');
  } finally {
    await store.close();
  }
  process.stderr.write(`rewind: state as of block ${block}\n`);
}
