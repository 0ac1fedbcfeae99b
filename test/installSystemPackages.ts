// npm's pretest step: the programs some tests drive, from Debian where apt-get can install them (as root):
// chromium-headless-shell (about 292 MiB) for the page tests (test/pages/browserPages.test.ts), nats-server
// (about 15 MiB) for the replication tests (test/stream/) and nginx-light (about 2 MiB) for the reverse-proxy
// example's test (test/api/reverseProxy.test.ts). What is missing and cannot be installed is said, and left to the
// tests: skipped on a developer's machine, failed under CI.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium } from './fixtures/chromium.js';
import { findNatsServer } from './fixtures/natsCluster.js';
import { findNginx } from './fixtures/nginx.js';

const NEEDED = [
  { name: 'chromium-headless-shell', present: () => findChromium() !== null, tests: 'the browser tests' },
  { name: 'nats-server', present: () => findNatsServer() !== null, tests: 'the replication tests' },
  { name: 'nginx-light', present: () => findNginx() !== null, tests: 'the reverse-proxy test' },
];

function apt(args: string[]): boolean {
  const run = spawnSync('apt-get', args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return run.status === 0;
}

const missing = NEEDED.filter((pkg) => !pkg.present());
if (missing.length > 0) {
  const names = missing.map((pkg) => pkg.name).join(' ');
  const tests = missing.map((pkg) => pkg.tests).join(' and ');
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    console.log(`pretest: no apt-get as root to install ${names}: ${tests} cannot run`);
  } else {
    console.log(`pretest: installing ${names} with apt-get for ${tests}`);
    const installed =
      apt(['update', '-q']) &&
      apt(['install', '-y', '-q', '--no-install-recommends', ...missing.map((pkg) => pkg.name)]);
    for (const pkg of missing)
      console.log(`pretest: ${pkg.name} ${installed && pkg.present() ? 'installed' : 'could not be installed'}`);
  }
}
