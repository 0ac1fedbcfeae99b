// `tally replay --to-block N --out DIR`: a data directory holding the state as of block N, built from the log
// alone, with the log up to N and a copy of the off-chain store, so `tally serve --data DIR` answers as of N.
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { dataPaths } from '../../dataDir.js';
import { openEventLog } from '../../log/eventLog.js';
import { openOffchainStore } from '../../offchain/openOffchainStore.js';
import { foldIntoScratch } from './foldIntoScratch.js';

export async function replayCommand(flags: { data: string; toBlock: number; out: string; workers?: number }): Promise<void> {
  if (existsSync(flags.out) && readdirSync(flags.out).length > 0) throw new Error(`--out ${flags.out} is not empty`);
  const source = dataPaths(flags.data);
  const target = dataPaths(flags.out);
  const from = openEventLog({ dir: source.log, readOnly: true });
  const to = openEventLog({ dir: target.log });
  try {
    for (const frame of from.read(-1, flags.toBlock)) to.append(frame);
  } finally {
    from.close();
    to.close();
  }
  const { store, runner } = await foldIntoScratch({ data: flags.out, stateDir: target.state, workers: flags.workers, label: 'replay' });
  await runner.close();
  await store.close();
  if (existsSync(source.config)) copyFileSync(source.config, target.config);
  const offchain = openOffchainStore({ dir: source.offchain });
  try {
    mkdirSync(target.offchain, { recursive: true });
    await offchain.env.backup(join(target.offchain, 'data.mdb'), false);
  } finally {
    await offchain.close();
  }
  process.stderr.write(`replay: state as of block ${flags.toBlock} in ${flags.out}\n`);
}
