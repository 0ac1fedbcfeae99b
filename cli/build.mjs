#!/usr/bin/env node
// Compiles the sources (cli/, engine/, api/, replay/) to JavaScript once, at install (`prepare`), so that no command
// pays for TypeScript at start-up. One file in, one file out (no bundle): the workers keep their own modules
// and import.meta.url still finds them. The output lives in node_modules/.cache/tally, rebuilt by every install.
import { build } from 'esbuild';
import { readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { buildDir, buildStamp, packageRoot, SOURCE_DIRS } from './buildPaths.mjs';

const entryPoints = SOURCE_DIRS.flatMap((dir) =>
  readdirSync(new URL(dir + '/', packageRoot), { recursive: true })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => `${dir}/${file}`),
);
const root = new URL('.', packageRoot).pathname;
const staging = buildDir.pathname.replace(/\/$/, '') + `.staging-${process.pid}`;
await build({
  absWorkingDir: root,
  entryPoints,
  outdir: staging,
  outbase: '.',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
const { name, version } = JSON.parse(readFileSync(new URL('package.json', packageRoot), 'utf8'));
// Without it, Node would load the output as CommonJS (a package scope ends at node_modules).
writeFileSync(`${staging}/package.json`, JSON.stringify({ name, version, type: 'module', private: true }) + '\n');
writeFileSync(`${staging}/${buildStamp}`, `${entryPoints.length} files\n`);
rmSync(buildDir, { recursive: true, force: true });
renameSync(staging, buildDir);
console.log(`tally: compiled ${entryPoints.length} files to ${buildDir.pathname}`);
