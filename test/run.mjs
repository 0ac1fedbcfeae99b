// Runs the tap suite and closes with a plain "N passed, N failed" line (CI reads it).
// A crash or timeout with no failed assertion still counts as one failure.
//
// With no files named, the suite runs as two tap processes of one job each, the files split between them by their
// measured seconds (the longest first, each to the lighter half). tap starts files in name order whatever it is
// given, so one process of two jobs left a long file that came late running alone while the other job sat idle:
// the suite took 21 minutes of wall time for 31 minutes of files. SECONDS is what each slow file took here (2
// cores, session 28); the others count as 2 s. Named files (or any tap arguments) go to one tap as given.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TapConfig } from '@tapjs/config';

const SECONDS = {
  'test/stream/replicasAgree.test.ts': 190,
  'test/tags/demoTags.test.ts': 126,
  'test/fold/backfill.test.ts': 116,
  'test/fold/foldDeterminism.test.ts': 88,
  'test/devnet/devnet.test.ts': 81,
  'test/api/replayBoard.test.ts': 73,
  'test/demo/demoVenue.test.ts': 53,
  'test/stream/replication.test.ts': 52,
  'test/cli/tradesOff.test.ts': 50,
  'test/api/replayAnswers.test.ts': 48,
  'test/demo/demoProtocolV2.test.ts': 46,
  'test/cli/stateBehind.test.ts': 42,
  'test/stream/publishRules.test.ts': 37,
  'test/cli/midBlockCapture.test.ts': 34,
  'test/cli/ingestCommand.test.ts': 33,
  'test/cli/captureCommand.test.ts': 31,
  'test/api/goldenAnswers.test.ts': 31,
  'test/state/fillsTable.test.ts': 30,
  'test/cli/rewindUnderServer.test.ts': 30,
  'test/cli/userMistakes.test.ts': 29,
  'test/cli/boardRollup.test.ts': 29,
  'test/api/boardRoutes.test.ts': 29,
  'test/cli/verifyDuringFold.test.ts': 26,
  'test/pages/browserPages.test.ts': 25,
  'test/source/rpcSource.test.ts': 24,
  'test/api/rateLimitsConfig.test.ts': 24,
  'test/api/blockMonotonic.test.ts': 23,
  'test/cli/runOutage.test.ts': 23,
  'test/log/eventLog.test.ts': 23,
  'test/cli/diskFull.test.ts': 22,
  'test/api/metrics.test.ts': 21,
  'test/cli/metadataPaging.test.ts': 20,
  'test/cli/cliErrors.test.ts': 19,
  'test/api/heavyWork.test.ts': 19,
  'test/api/answerCache.test.ts': 18,
  'test/stream/publishRpc.test.ts': 18,
  'test/cli/runMetadataRefresh.test.ts': 16,
  'test/cli/v2AdapterMatches.test.ts': 16,
  'test/cli/v2LedgerFold.test.ts': 16,
  'test/api/goldenBoard.test.ts': 16,
  'test/api/answerCoding.test.ts': 15,
  'test/cli/captureBlockHash.test.ts': 15,
  'test/api/server.test.ts': 15,
  'test/api/rawRequests.test.ts': 12,
};
const OTHER_SECONDS = 2;

const root = fileURLToPath(new URL('../', import.meta.url));
const tapBin = fileURLToPath(new URL('../node_modules/tap/dist/esm/run.mjs', import.meta.url));

/** Every test file, in two halves of about equal measured time. */
function halves() {
  const files = readdirSync(new URL('./', import.meta.url), { recursive: true })
    .map((file) => `test/${String(file)}`)
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => ({ file, seconds: SECONDS[file] ?? OTHER_SECONDS }))
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
  const parts = [
    { files: [], seconds: 0 },
    { files: [], seconds: 0 },
  ];
  for (const { file, seconds } of files) {
    const lighter = parts[0].seconds <= parts[1].seconds ? parts[0] : parts[1];
    lighter.files.push(file);
    lighter.seconds += seconds;
  }
  return parts.map((part) => part.files);
}

/** One tap process; its output passed on line by line, its last summary kept. */
function runTap(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tapBin, '--reporter=tap', ...args], {
      cwd: root,
      stdio: ['inherit', 'pipe', 'inherit'],
    });
    let pending = '';
    let tail = '';
    child.stdout.on('data', (chunk) => {
      const text = pending + chunk.toString('utf8');
      const cut = text.lastIndexOf('\n') + 1;
      process.stdout.write(text.slice(0, cut));
      pending = text.slice(cut);
      tail = (tail + text.slice(0, cut)).slice(-8192);
    });
    child.on('close', (code, signal) => {
      if (pending) process.stdout.write(pending + '\n');
      const summary = [...(tail + pending).matchAll(/^# \{ total: (\d+)([^}]*)\}$/gm)].at(-1);
      const count = (name) => Number((summary?.[2].match(new RegExp(`${name}: (\\d+)`)) ?? [])[1] ?? 0);
      resolve({
        passed: summary ? count('pass') : 0,
        failed: (summary ? count('fail') : 0) || (code !== 0 ? 1 : 0),
        skipped: summary ? count('skip') + count('todo') : 0,
        code: code ?? (signal ? 1 : 0),
      });
    });
  });
}

/**
 * tap builds its test class for the configured plugins when the one installed was built for others (so after every
 * install); two taps starting at once both rebuild it, each deleting what the other is loading, and in a fresh clone
 * every file failed to load. The same check tap makes, then one build before both start.
 */
async function buildTapIfStale() {
  const config = await TapConfig.load();
  const { signature } = await import('@tapjs/test');
  if (signature === config.pluginSignature) return;
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tapBin, 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tap build exited with ${code}`))));
  });
}

const args = process.argv.slice(2);
await buildTapIfStale();
const runs = args.length > 0 ? [runTap(args)] : halves().map((files) => runTap(['--jobs=1', ...files]));
const results = await Promise.all(runs);
const total = (name) => results.reduce((sum, result) => sum + result[name], 0);
if (total('skipped')) console.log(`${total('skipped')} skipped`);
// The last line is exactly "N passed, N failed": CI reads it.
console.log(`${total('passed')} passed, ${total('failed')} failed`);
process.exit(results.find((result) => result.code !== 0)?.code ?? 0);
