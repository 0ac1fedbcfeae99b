// Reads a file line by line with a reused buffer: bounded memory whatever the file size. Yields each line's
// text and 1-based number, and whether it ended with a newline (a last line without one may be torn).
import { closeSync, openSync, readSync } from 'node:fs';

export interface Line {
  text: string;
  number: number;
  terminated: boolean;
}

export function* readLines(path: string, chunkBytes = 4 * 1024 * 1024): Generator<Line> {
  const fd = openSync(path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(chunkBytes);
    let start = 0;
    let end = 0;
    let number = 0;
    for (;;) {
      if (start > 0 && start === end) start = end = 0;
      if (end === buffer.length) {
        if (start > 0) {
          buffer.copy(buffer, 0, start, end);
          end -= start;
          start = 0;
        } else {
          // A line longer than the buffer: grow it.
          const bigger = Buffer.allocUnsafe(buffer.length * 2);
          buffer.copy(bigger, 0, 0, end);
          buffer = bigger;
        }
      }
      const read = readSync(fd, buffer, end, buffer.length - end, null);
      if (read === 0) break;
      end += read;
      let newline = buffer.indexOf(10, start);
      while (newline !== -1 && newline < end) {
        const lineEnd = newline > start && buffer[newline - 1] === 13 ? newline - 1 : newline;
        yield { text: buffer.toString('utf8', start, lineEnd), number: ++number, terminated: true };
        start = newline + 1;
        newline = buffer.indexOf(10, start);
      }
    }
    if (end > start) yield { text: buffer.toString('utf8', start, end), number: ++number, terminated: false };
  } finally {
    closeSync(fd);
  }
}
