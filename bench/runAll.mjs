// `npm run bench`: runs every bench:* script of package.json in turn (each rewrites its figures in README.md), but
// bench:fold-stream, a backfill of 30M fills (some 40 minutes and 15 GB of disk here): run it alone.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const scripts = Object.keys(
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts,
).filter((name) => name.startsWith('bench:') && name !== 'bench:fold-stream');
let failed = 0;
for (const name of scripts) {
  console.log(`== npm run ${name}`);
  const run = spawnSync('npm', ['run', '--silent', name], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
