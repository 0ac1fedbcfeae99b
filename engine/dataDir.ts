// The layout of a data directory: the log, the folded state, the off-chain store (keys, metadata, profiles),
// the venue config and the demo's inputs.
import { join } from 'node:path';

export interface DataPaths {
  root: string;
  log: string;
  state: string;
  config: string;
  offchain: string;
  demo: string;
}

export function dataPaths(root: string): DataPaths {
  return {
    root,
    log: join(root, 'log'),
    state: join(root, 'state'),
    config: join(root, 'config.json'),
    offchain: join(root, 'offchain'),
    demo: join(root, 'demo'),
  };
}
