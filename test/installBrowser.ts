// npm's pretest step: the browser the page tests need (test/pages/browserPages.test.ts). Where none is installed
// and apt-get can install one (as root), installs Debian's chromium-headless-shell (about 292 MiB). Otherwise it
// says so and leaves the choice to the tests: skipped on a developer's machine, failed under CI.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium } from './fixtures/chromium.js';

const PACKAGE = 'chromium-headless-shell';

function apt(args: string[]): boolean {
  const run = spawnSync('apt-get', args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return run.status === 0;
}

if (findChromium() === null) {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    console.log(`pretest: no Chromium and no apt-get as root to install ${PACKAGE}: the browser tests cannot run`);
  } else {
    console.log(`pretest: installing ${PACKAGE} with apt-get for the browser tests`);
    const installed = apt(['update', '-q']) && apt(['install', '-y', '-q', '--no-install-recommends', PACKAGE]);
    if (!installed) console.log(`pretest: apt-get could not install ${PACKAGE}`);
    else
      console.log(
        `pretest: ${PACKAGE} installed; the tests use ${findChromium() ?? 'none (TALLY_CHROMIUM names another path)'}`,
      );
  }
}
