// An input file named on the command line (--capture, --file, --metadata) is checked before anything is opened
// or created: a path that is not there, a directory or a file that cannot be read is the user's mistake, one
// line naming the flag and the path, not an error deep in a reader (a worker thread loses the system error's code,
// so it would surface as a bug).
import { accessSync, constants, statSync } from 'node:fs';
import { RefusedError } from '../engine/refusedError.js';
import { describeSystemError } from './describeSystemError.js';

export function checkInputFile(path: string, flag: string): void {
  try {
    if (statSync(path).isDirectory()) throw new RefusedError(`--${flag} ${path}: is a directory; give a file`);
    accessSync(path, constants.R_OK);
  } catch (error) {
    const described = describeSystemError(error);
    if (described === null) throw error;
    throw new RefusedError(`--${flag} ${described}`, { cause: error });
  }
}
