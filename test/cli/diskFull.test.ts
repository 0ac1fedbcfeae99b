// A write the disk refuses: one `tally:` line naming where, nothing folded lost, and a resume (once there is room)
// ends with the state of an ingest that never failed. The state on a full filesystem needs a small tmpfs, which
// only root may mount; the log's write failure is simulated everywhere with a file size limit (ulimit -f: Node
// ignores SIGXFSZ, so the write fails with EFBIG).
import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createIngestedDemo } from '../fixtures/demoData.js';
import { emptyDataDir } from '../fixtures/demoVenue.js';
import { runTally } from '../fixtures/runTally.js';
import { stateDigest } from '../../engine/state/stateDigest.js';

const BIN = fileURLToPath(new URL('../../cli/tally.mjs', import.meta.url));
// The demo freshly ingested (its fold shared with test/cli/stateBehind.test.ts): the state a resume must reach.
const { inputs, data: fresh } = await createIngestedDemo(300, 9);
const args = (data: string) => ['ingest', '--data', data, '--capture', inputs.capture];

const dataDir = (name: string) => emptyDataDir(inputs, name);

const expected = await stateDigest(join(fresh, 'state'));

/** The one line a refused write gives: no stack, no library report. */
function oneLine(t: Test, stderr: string, pattern: RegExp): void {
  const lines = stderr.split('\n').filter((line) => line !== '' && !line.startsWith('ingest: '));
  t.equal(lines.length, 1, `one line: ${stderr}`);
  t.match(lines[0], pattern);
}

const tmpfs = join(inputs.dir, 'tmpfs');
mkdirSync(tmpfs);
const mounted =
  process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', tmpfs]).status === 0;
if (mounted) t.teardown(() => void spawnSync('umount', [tmpfs]));

t.test(
  'error: the state on a full filesystem',
  { skip: mounted ? false : 'cannot mount a tmpfs here (root only)' },
  async (t) => {
    const data = dataDir('full');
    symlinkSync(tmpfs, join(data, 'state'));
    const full = runTally(args(data));
    t.equal(full.code, 1);
    oneLine(
      t,
      full.stderr,
      new RegExp(
        `^tally: cannot commit the state in ${join(data, 'state')}: the disk holding it is full \\(\\d+ bytes free\\)\\. Nothing folded is lost`,
      ),
    );
    t.equal(spawnSync('mount', ['-o', 'remount,size=64m', tmpfs]).status, 0);
    const resumed = runTally(args(data));
    t.equal(resumed.code, 0, resumed.stderr);
    t.equal(await stateDigest(join(data, 'state')), expected, 'resumed: the state of an ingest that never failed');
  },
);

t.test('error: a log write refused (file size limit)', async (t) => {
  const data = dataDir('limited');
  // NODE_OPTIONS unset: tap's process-info hook (put back into every child's environment) catches SIGXFSZ
  // and then dies of it, where tally alone gets EFBIG.
  const shell = `unset NODE_OPTIONS; ulimit -f 256; exec "${process.execPath}" "${BIN}" "$@"`;
  const limited = spawnSync('sh', ['-c', shell, 'sh', ...args(data)], { encoding: 'utf8' });
  t.equal(limited.status, 1, `${limited.status} ${limited.signal} ${limited.stdout} ${limited.stderr}`);
  oneLine(
    t,
    limited.stderr,
    new RegExp(`^tally: ${join(data, 'log')}/\\d+\\.seg: file too large .*Nothing written before is lost`),
  );
  const resumed = runTally(args(data));
  t.equal(resumed.code, 0, resumed.stderr);
  t.equal(await stateDigest(join(data, 'state')), expected, 'resumed: the state of an ingest that never failed');
});
