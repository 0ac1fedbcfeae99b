#!/usr/bin/env node
// The `tally` command: runs the TypeScript sources through tsx (registered in-process, so signals reach this
// very process and the fold's workers inherit the loader through their execArgv).
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
