// The last block a capture file holds, from its last line alone: how far an ingest of it will take the state, known
// before the file is read (whether to backfill, engine/README.md, Backfill). Null when the tail has no line that
// parses, or when the capture is a pipe (its end is not written yet, and opening it would race its writer): the
// ingest then reports the file's errors where it reads them.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { MAX_LINE_BYTES } from './readLines.js';
import { parseCaptureLine } from './parseCaptureLine.js';

export function captureLastBlock(path: string): number | null {
  if (statSync(path, { throwIfNoEntry: false })?.isFIFO()) return null;
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    // A line is at most MAX_LINE_BYTES, so the last one lies within that much of the end, with its newlines.
    const length = Math.min(size, MAX_LINE_BYTES + 4);
    const tail = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const got = readSync(fd, tail, read, length - read, size - length + read);
      if (got === 0) break;
      read += got;
    }
    const lines = tail.toString('utf8', 0, read).split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      const text = lines[i]!.trim();
      if (text === '') continue;
      try {
        return parseCaptureLine(text).block;
      } catch {
        return null;
      }
    }
    return null;
  } finally {
    closeSync(fd);
  }
}
