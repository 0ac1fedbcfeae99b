#!/usr/bin/env node
// Compiles the sources to JavaScript once, at install (`prepare`), so that no command or thread pays for
// TypeScript or for loading hundreds of small modules at start-up. esbuild bundles each entry (the command line and
// every thread's module) with the pure-JavaScript packages it imports, split into shared chunks, so a command
// loads only what it runs: a serving thread loaded 1,342 modules unbundled (typebox's 683 files and viem's 344 among
// them), 2.4 s of CPU a thread on this machine. Packages with native parts or their own file lookups stay outside
// (EXTERNAL). The output lives in dist/, outside node_modules: writing under node_modules after npm's hidden lockfile
// made every `npx tally` reread the whole tree (about 2 s).
//
// It also links node_modules/.bin/tally to cli/tally.mjs. package.json names no `bin`: npm 11's `npx` runs a
// project's own bin by installing the project into its cache first (loading the whole tree, 1.5 s here), while a
// command found in node_modules/.bin runs at once (0.5 s, most of it npm's own start).
import { build } from 'esbuild';
import { mkdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { buildDir, buildStamp, packageRoot, THREAD_ENTRIES } from './buildPaths.mjs';

const { dependencies } = JSON.parse(readFileSync(new URL('package.json', packageRoot), 'utf8'));
/** Bundled: plain ES modules with no file lookups of their own. Every other package is imported as installed. */
const BUNDLED = new Set(['typebox', 'viem']);
const EXTERNAL = Object.keys(dependencies).filter((name) => !BUNDLED.has(name));

const root = new URL('.', packageRoot).pathname;
const staging = buildDir.pathname.replace(/\/$/, '') + `.staging-${process.pid}`;
const common = {
  absWorkingDir: root,
  outdir: staging,
  outbase: '.',
  bundle: true,
  external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
};
// The command line in chunks, so a command loads only its own code (its imports of the others are dynamic). Each
// thread's module whole, on its own: a chunk shared with the command line would load what the thread never uses
// (lmdb's native addon in the capture reader, which, still loading when an ingest stopped on a bad line, took the
// process down with a fatal error instead of the line's message).
await build({ ...common, entryPoints: ['cli/main.ts'], splitting: true, chunkNames: 'chunks/[name]-[hash]' });
await build({ ...common, entryPoints: THREAD_ENTRIES.map((entry) => `${entry}.ts`) });
const entryPoints = ['cli/main.ts', ...THREAD_ENTRIES];
writeFileSync(`${staging}/${buildStamp}`, `${entryPoints.length} entries\n`);
rmSync(buildDir, { recursive: true, force: true });
renameSync(staging, buildDir);

const bin = new URL('node_modules/.bin/', packageRoot);
const link = new URL('tally', bin);
const target = '../../cli/tally.mjs';
let current = null;
try {
  current = readlinkSync(link);
} catch {}
if (current !== target) {
  mkdirSync(bin, { recursive: true });
  rmSync(link, { force: true });
  symlinkSync(target, link);
}
console.log(`tally: compiled ${entryPoints.length} entries into ${buildDir.pathname}; npx tally runs cli/tally.mjs`);
