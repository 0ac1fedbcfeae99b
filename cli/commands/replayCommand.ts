// `tally replay --to-block N --out DIR`: a data directory holding the state as of block N, built from the log
// alone, with the log up to N and a copy of the off-chain store, so `tally serve --data DIR` answers as of N.
import { copyFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import type { BlockEvents } from '../../engine/chain/chainEvent.js';
import { FOLD_BATCH_LOGS } from '../../engine/limits.js';
import { RefusedError } from '../../engine/refusedError.js';
import { dataPaths } from '../../engine/dataDir.js';
import { openEventLog } from '../../engine/log/eventLog.js';
import { openOffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { replicatedEntries, writeOffchain } from '../../engine/offchain/offchainWrites.js';
import { foldIntoScratch } from './foldIntoScratch.js';
import { rollUpBoardOnce } from '../rollUpBoard.js';

export async function replayCommand(flags: {
  data: string;
  toBlock: number;
  out: string;
  workers?: number;
}): Promise<void> {
  // A new directory: replay never writes over a venue (nor into the one it reads).
  if (existsSync(flags.out)) {
    const fix = 'give a new or empty directory';
    if (!statSync(flags.out).isDirectory()) throw new RefusedError(`--out ${flags.out} is a file; ${fix}`);
    if (readdirSync(flags.out).length > 0) throw new RefusedError(`--out ${flags.out} is not empty; ${fix}`);
  }
  const source = dataPaths(flags.data);
  const target = dataPaths(flags.out);
  const sourceLog = openEventLog({ dir: source.log, readOnly: true });
  const targetLog = openEventLog({ dir: target.log });
  try {
    // Frames of about a fold batch, as a capture's are.
    let frame: BlockEvents[] = [];
    let events = 0;
    for (const block of sourceLog.read(-1, flags.toBlock)) {
      frame.push(block);
      events += block.events.length;
      if (events >= FOLD_BATCH_LOGS) {
        targetLog.append(frame);
        frame = [];
        events = 0;
      }
    }
    if (frame.length > 0) targetLog.append(frame);
  } finally {
    sourceLog.close();
    targetLog.close();
  }
  // The same contract addresses, or the refold would read the log differently.
  if (existsSync(source.config)) copyFileSync(source.config, target.config);
  const { store, runner } = await foldIntoScratch({
    data: flags.out,
    stateDir: target.state,
    workers: flags.workers,
    label: 'replay',
  });
  await runner.close();
  // Keys, metadata and profiles come along, so the replayed directory serves like the original (and its content
  // digests are the original's).
  const from = openOffchainStore({ dir: source.offchain });
  const to = openOffchainStore({ dir: target.offchain });
  try {
    await writeOffchain(to, (writes) => {
      for (const { table, key, value } of replicatedEntries(from)) writes.put(table, key, value);
    });
    // With the metadata in place: the board's categories come from it.
    await rollUpBoardOnce(target, 'replay');
  } finally {
    await store.close();
    await from.close();
    await to.close();
  }
  process.stderr.write(`replay: state as of block ${flags.toBlock} in ${flags.out}\n`);
}
