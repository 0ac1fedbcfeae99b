// Reads a file line by line with a reused buffer: bounded memory whatever the file size. Each line is a byte
// range of that buffer, valid until the next line is read (no string is made unless asked for), with its
// 1-based number and whether it ended with a newline (a last line without one may be torn). A line longer than
// maxLineBytes is refused (FILE:LINE) as soon as it is seen, before it is held whole.
import { closeSync, openSync, readSync } from 'node:fs';
import { InputError } from '../../engine/inputError.js';

/** Far above any log of the venue (a TransferBatch of a thousand ids is some 130 kB of hex). */
export const MAX_LINE_BYTES = 1024 * 1024;

export interface Line {
  buffer: Buffer;
  start: number;
  end: number;
  number: number;
  terminated: boolean;
}

export function lineText(line: Line): string {
  return line.buffer.toString('utf8', line.start, line.end);
}

export function* readLines(
  path: string,
  options: { chunkBytes?: number; maxLineBytes?: number } = {},
): Generator<Line> {
  const chunkBytes = options.chunkBytes ?? 4 * 1024 * 1024;
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const tooLong = (number: number) =>
    new InputError(path, number, `the line is longer than ${maxLineBytes} bytes: not a log line of a capture`);
  const fd = openSync(path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(chunkBytes);
    let start = 0;
    let end = 0;
    const line: Line = { buffer, start: 0, end: 0, number: 0, terminated: true };
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
          buffer = line.buffer = bigger;
        }
      }
      const read = readSync(fd, buffer, end, buffer.length - end, null);
      if (read === 0) break;
      end += read;
      let newline = buffer.indexOf(10, start);
      while (newline !== -1 && newline < end) {
        if (newline - start > maxLineBytes) throw tooLong(line.number + 1);
        line.start = start;
        line.end = newline > start && buffer[newline - 1] === 13 ? newline - 1 : newline;
        line.number++;
        yield line;
        start = newline + 1;
        newline = buffer.indexOf(10, start);
      }
      if (end - start > maxLineBytes) throw tooLong(line.number + 1);
    }
    if (end > start) {
      line.start = start;
      line.end = end;
      line.number++;
      line.terminated = false;
      yield line;
    }
  } finally {
    closeSync(fd);
  }
}
