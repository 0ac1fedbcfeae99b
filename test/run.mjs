// Runs the tap suite and closes with a plain "N passed, N failed" line (CI reads it).
// A crash or timeout with no failed assertion still counts as one failure.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const tapBin = fileURLToPath(new URL('../node_modules/tap/dist/esm/run.mjs', import.meta.url));
const child = spawn(process.execPath, [tapBin, '--reporter=tap', ...process.argv.slice(2)], {
  stdio: ['inherit', 'pipe', 'inherit'],
});
let tail = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  tail = (tail + chunk.toString('utf8')).slice(-8192);
});
child.on('close', (code, signal) => {
  const summary = [...tail.matchAll(/^# \{ total: (\d+)([^}]*)\}$/gm)].at(-1);
  const count = (name) => Number((summary?.[2].match(new RegExp(`${name}: (\\d+)`)) ?? [])[1] ?? 0);
  const failed = (summary ? count('fail') : 0) || (code !== 0 ? 1 : 0);
  const skipped = summary ? count('skip') + count('todo') : 0;
  if (skipped) console.log(`${skipped} skipped`);
  // The last line is exactly "N passed, N failed": CI reads it.
  console.log(`${summary ? count('pass') : 0} passed, ${failed} failed`);
  process.exit(code ?? (signal ? 1 : 0));
});
