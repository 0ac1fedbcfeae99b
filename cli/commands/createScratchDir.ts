// A command's scratch directory, `DIR/<purpose>-scratch-PID` inside the data directory (the same disk as the state
// it stands beside, so a rename moves it): verify refolds into one, rewind folds the rewound state into one. Those
// left by killed commands of the same purpose are removed first; a signal removes this one on the way out.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../../engine/isProcessAlive.js';

export interface ScratchDir {
  dir: string;
  remove(): void;
}

export function createScratchDir(root: string, purpose: 'verify' | 'rewind'): ScratchDir {
  // No dot in the name: lmdb-js takes a path with an extension for a file, not a directory.
  const pattern = new RegExp(`^${purpose}-scratch-(\\d+)$`);
  for (const name of readdirSync(root)) {
    const match = pattern.exec(name);
    if (match && !isProcessAlive(Number(match[1]))) rmSync(join(root, name), { recursive: true, force: true });
  }
  const dir = join(root, `${purpose}-scratch-${process.pid}`);
  mkdirSync(dir);
  const onSignal = (signal: NodeJS.Signals) => {
    rmSync(dir, { recursive: true, force: true });
    // A fold worker opening the scratch state at that very moment may create its files again: wait a moment
    // (this thread dispatches nothing meanwhile) and remove what it left.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    rmSync(dir, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    dir,
    remove() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
