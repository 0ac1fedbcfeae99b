// Which commands may create a data directory (README.md, Commands): demo, ingest, start, run and replay's --out
// make theirs. Every other command reads or amends a venue that exists, so a directory that is not there is a
// typo, refused in one line rather than made into a new, empty venue.
import { statSync } from 'node:fs';
import { RefusedError } from '../engine/refusedError.js';

export function requireDataDir(data: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(data).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new RefusedError(`${data} does not exist: give --data a venue's directory (tally demo or ingest makes one)`);
  }
  if (!isDirectory) throw new RefusedError(`${data} is not a directory: give --data a venue's directory`);
}
