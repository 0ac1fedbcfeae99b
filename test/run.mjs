// Runs the tap suite and closes with a plain "N passed, N failed" line (CI reads it).
// A crash or timeout with no failed assertion still counts as one failure.
//
// With no files named, the suite runs as LANES tap processes of one job each, the files split between them by their
// measured seconds (the longest first, each to the lightest lane). tap starts files in name order whatever it is
// given, so one process of two jobs left a long file that came late running alone while the other job sat idle.
// Three lanes on two cores: a file spends much of its time waiting (servers, child processes, a chain's pace), and
// two lanes kept the cores 81% busy. SECONDS is what each slow file took here (2 cores, three lanes, test caches
// cold, session 29); the others count as OTHER_SECONDS. Named files (or any tap arguments) go to one tap as given.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TapConfig } from '@tapjs/config';
import { buildVendorBundles } from './fixtures/vendorBundles.mjs';

const SECONDS = {
  'test/fold/backfill.test.ts': 136,
  'test/stream/replicasAgree.test.ts': 125,
  'test/fold/foldDeterminism.test.ts': 112,
  'test/tags/demoTags.test.ts': 111,
  'test/demo/demoVenue.test.ts': 84,
  'test/devnet/devnet.test.ts': 81,
  'test/stream/replication.test.ts': 64,
  'test/demo/demoProtocolV2.test.ts': 60,
  'test/cli/midBlockCapture.test.ts': 59,
  'test/api/replayBoard.test.ts': 59,
  'test/state/fillsTable.test.ts': 55,
  'test/cli/ingestCommand.test.ts': 55,
  'test/api/replayAnswers.test.ts': 52,
  'test/stream/publishRules.test.ts': 52,
  'test/cli/tradesOff.test.ts': 46,
  'test/api/boardRoutes.test.ts': 45,
  'test/pages/browserPages.test.ts': 39,
  'test/api/fillsFeed.test.ts': 38,
  'test/cli/stateBehind.test.ts': 38,
  'test/cli/rewindUnderServer.test.ts': 36,
  'test/api/goldenAnswers.test.ts': 36,
  'test/cli/userMistakes.test.ts': 36,
  'test/cli/boardRollup.test.ts': 36,
  'test/source/rpcSource.test.ts': 35,
  'test/api/blockMonotonic.test.ts': 34,
  'test/cli/captureCommand.test.ts': 33,
  'test/log/eventLog.test.ts': 30,
  'test/cli/cliErrors.test.ts': 30,
  'test/cli/runOutage.test.ts': 28,
  'test/api/answerCache.test.ts': 26,
  'test/cli/verifyDuringFold.test.ts': 26,
  'test/api/rateLimitsConfig.test.ts': 25,
  'test/cli/metadataPaging.test.ts': 25,
  'test/api/metrics.test.ts': 24,
  'test/api/server.test.ts': 22,
  'test/stream/publishRpc.test.ts': 21,
  'test/api/accessLog.test.ts': 19,
  'test/cli/diskFull.test.ts': 18,
  'test/cli/runMetadataRefresh.test.ts': 18,
  'test/api/catchingUp.test.ts': 18,
  'test/api/heavyWork.test.ts': 17,
  'test/cli/captureBlockHash.test.ts': 17,
  'test/api/httpFuzz.test.ts': 17,
  'test/source/rpcFirstConnection.test.ts': 16,
  'test/cli/v2AdapterMatches.test.ts': 16,
  'test/api/answerCoding.test.ts': 15,
  'test/api/goldenBoard.test.ts': 14,
  'test/cli/v2LedgerFold.test.ts': 13,
  'test/fold/workerOptions.test.ts': 13,
  'test/api/walletProfiles.test.ts': 12,
  'test/api/rawRequests.test.ts': 12,
  'test/api/servingThreads.test.ts': 12,
  'test/fold/boundHeapGrowth.test.ts': 11,
  'test/cli/missingFeeds.test.ts': 10,
};
const OTHER_SECONDS = 3;

const root = fileURLToPath(new URL('../', import.meta.url));
const tapBin = fileURLToPath(new URL('../node_modules/tap/dist/esm/run.mjs', import.meta.url));

const LANES = 3;

/** Every test file, in LANES lanes of about equal measured time. */
function lanes() {
  const files = readdirSync(new URL('./', import.meta.url), { recursive: true })
    .map((file) => `test/${String(file)}`)
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => ({ file, seconds: SECONDS[file] ?? OTHER_SECONDS }))
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
  const parts = Array.from({ length: LANES }, () => ({ files: [], seconds: 0 }));
  for (const { file, seconds } of files) {
    const lightest = parts.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    lightest.files.push(file);
    lightest.seconds += seconds;
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
 * install); taps starting at once: each rebuilds it, deleting what another is loading, and in a fresh clone
 * every file failed to load. The same check tap makes, then one build before they start.
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
await buildVendorBundles();
const runs = args.length > 0 ? [runTap(args)] : lanes().map((files) => runTap(['--jobs=1', ...files]));
const results = await Promise.all(runs);
const total = (name) => results.reduce((sum, result) => sum + result[name], 0);
if (total('skipped')) console.log(`${total('skipped')} skipped`);
// The last line is exactly "N passed, N failed": CI reads it.
console.log(`${total('passed')} passed, ${total('failed')} failed`);
process.exit(results.find((result) => result.code !== 0)?.code ?? 0);
