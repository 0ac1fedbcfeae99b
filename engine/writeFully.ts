// Writes all of `bytes` at `position`: writeSync may write fewer than asked.
import { writeSync } from 'node:fs';

export function writeFully(fd: number, bytes: Buffer, position: number): void {
  let written = 0;
  while (written < bytes.length) {
    written += writeSync(fd, bytes, written, bytes.length - written, position + written);
  }
}
