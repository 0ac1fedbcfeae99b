// A command that makes its data directory (run, publish, replica) and fails before anything was logged in it (a
// node of another chain, no NATS server, a bad stream name) leaves no directory behind: the next try starts clean
// and a typo in --data leaves no litter.
import { existsSync, rmSync } from 'node:fs';
import { isEmptyDataDir } from '../openVenue.js';

/** Runs `command` over `data`; when it fails, a directory it made that holds no log segment is removed. */
export async function cleanUpMadeDataDir(data: string, command: () => Promise<void>): Promise<void> {
  const made = !existsSync(data);
  try {
    await command();
  } catch (error) {
    if (made && isEmptyDataDir(data)) rmSync(data, { recursive: true, force: true });
    throw error;
  }
}
