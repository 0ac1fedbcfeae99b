// A rollup in a process that serves runs at the lowest priority (nice 19 on its thread alone), so the kernel runs a
// woken serving thread first; elsewhere (ingest, demo) at the process's.
import t from 'tap';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBoardRollup } from '../../engine/rollup/createBoardRollup.js';
import { openOffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { openStateStore } from '../../engine/state/openStateStore.js';

/** A thread's nice value (the 19th field of its stat, after the command's name). */
function niceOf(tid: string): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** The nice values of this process's threads. */
function threadNices(): number[] {
  return readdirSync('/proc/self/task').map(niceOf);
}

async function rolledUp(background: boolean): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-rollup-'));
  await openStateStore({ dir: join(dir, 'state') }).close();
  await openOffchainStore({ dir: join(dir, 'offchain') }).close();
  const rollup = createBoardRollup(
    { stateDir: join(dir, 'state'), offchainDir: join(dir, 'offchain'), logDir: join(dir, 'log') },
    { tagRuns: false, background },
  );
  try {
    await rollup.run();
    return threadNices();
  } finally {
    await rollup.close();
  }
}

t.test(
  'behavior: a background rollup lowers its own thread alone',
  { skip: !existsSync('/proc/self/task') || getPriority() === 19 },
  async (t) => {
    const before = threadNices();
    // The main thread's id is the process's (the listing's order follows ids, which wrap on a busy machine).
    const main = niceOf(String(process.pid));
    t.notOk(before.includes(19), 'no thread of this process runs at nice 19 to begin with');
    t.notOk((await rolledUp(false)).includes(19), 'a rollup of a process that does not serve: as the process');
    const nices = await rolledUp(true);
    t.equal(nices.filter((nice) => nice === 19).length, 1, 'one thread at nice 19: the rollup');
    t.equal(niceOf(String(process.pid)), main, 'the main thread as it was');
  },
);
