// `tally verify`: the log's own checksums, then a refold into a scratch directory whose per-block checksums must
// equal the stored ones; the first block that differs is named. Exit code 0 only when everything matches.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataPaths } from '../../dataDir.js';
import type { BlockRecord } from '../../fold/createFoldRunner.js';
import { openEventLog } from '../../log/eventLog.js';
import { openStateStore } from '../../state/openStateStore.js';
import { decodeValue } from '../../state/stateCodec.js';
import { isStateLayoutCurrent, STATE_LAYOUT } from '../../state/stateLayout.js';
import { foldIntoScratch } from './foldIntoScratch.js';

export async function verifyCommand(flags: { data: string; workers?: number }): Promise<boolean> {
  const paths = dataPaths(flags.data);
  const log = openEventLog({ dir: paths.log, readOnly: true });
  const logCheck = log.verify();
  log.close();
  if (!logCheck.ok) {
    console.log(`verify: log segment ${logCheck.segment} is damaged: ${logCheck.reason}`);
    return false;
  }
  const stored = openStateStore({ dir: paths.state });
  if (!isStateLayoutCurrent(stored)) {
    await stored.close();
    console.log(`verify: the state in ${paths.state} was folded with another state layout than this tally's (${STATE_LAYOUT}); fold it again first (tally start or tally ingest do so)`);
    return false;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'tally-verify-'));
  try {
    const { store, runner } = await foldIntoScratch({ data: flags.data, stateDir: scratch, workers: flags.workers, label: 'verify' });
    let compared = 0;
    let firstDiff: string | null = null;
    const refolded = [...store.dbs.blocks.getRange({})];
    const original = [...stored.dbs.blocks.getRange({})];
    for (let i = 0; i < Math.max(refolded.length, original.length); i++) {
      const a = original[i] ? decodeValue<BlockRecord>(original[i]!.value) : null;
      const b = refolded[i] ? decodeValue<BlockRecord>(refolded[i]!.value) : null;
      if (!a || !b || a.block !== b.block || a.checksum !== b.checksum) {
        firstDiff = a && b && a.block === b.block ? `block ${a.block}: stored ${a.checksum} refolded ${b.checksum}`
          : `block ${(a ?? b)!.block} is in the ${a ? 'stored state' : 'refold'} only`;
        break;
      }
      compared++;
    }
    await runner.close();
    await store.close();
    if (firstDiff) {
      console.log(`verify: FAILED at ${firstDiff} (${compared} blocks matched before it)`);
      return false;
    }
    console.log(`verify: ok, ${compared} blocks, checksum ${compared ? decodeValue<BlockRecord>(original[compared - 1]!.value).checksum : '-'}`);
    return true;
  } finally {
    await stored.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
