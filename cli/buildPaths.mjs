// Where the compiled sources go and how the `tally` command tells whether they are current.
import { readdirSync, statSync } from 'node:fs';

export const packageRoot = new URL('../', import.meta.url);
export const SOURCE_DIRS = ['cli', 'engine', 'api', 'replay'];
export const buildDir = new URL('node_modules/.cache/tally/', packageRoot);
export const buildStamp = 'BUILT';

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
