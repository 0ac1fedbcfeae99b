// Where the compiled sources go and how the `tally` command tells whether they are current.
import { readdirSync, statSync } from 'node:fs';

export const packageRoot = new URL('../', import.meta.url);
export const SOURCE_DIRS = ['cli', 'engine', 'api', 'replay'];
export const buildDir = new URL('dist/', packageRoot);
export const buildStamp = 'BUILT';
/**
 * The modules threads start from (engine/workerOptions.ts), by their path from the root: each is an entry of the
 * build, kept at that path under dist/ (test/cli/buildEntries.test.ts finds every thread's module here).
 */
export const THREAD_ENTRIES = [
  'cli/servingThread',
  'engine/fold/walletFoldWorker',
  'engine/rollup/rollupWorker',
  'api/heavy/heavyAnswerWorker',
  'replay/source/captureReaderWorker',
];

/** True when a build exists and no source file is newer than it (an edit after install falls back to tsx). */
export function isBuildCurrent() {
  let built;
  try {
    built = statSync(new URL(buildStamp, buildDir)).mtimeMs;
  } catch {
    return false;
  }
  for (const dir of SOURCE_DIRS) {
    const base = new URL(dir + '/', packageRoot);
    for (const file of readdirSync(base, { recursive: true })) {
      if (file.endsWith('.ts') && statSync(new URL(file, base)).mtimeMs > built) return false;
    }
  }
  return true;
}
