#!/usr/bin/env node
// The `tally` command. It runs the build made at install (see build.mjs) while no source is newer than it;
// otherwise the TypeScript sources through tsx (registered in-process, so signals reach this very process and
// the fold's workers inherit the loader through their execArgv).
import { buildDir, isBuildCurrent } from './buildPaths.mjs';

if (isBuildCurrent()) {
  await import(new URL('cli/main.js', buildDir).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./main.ts');
}
