// A sliding window over a file: a log segment for the frame scanner, a hand-off's run file (walletFirstRuns.ts).
import { assert, AssertionFailure } from '../assert.js';
import { readSync } from 'node:fs';
import { EventLogError } from './eventLogError.js';

/**
 * A sliding window over one file in a reusable buffer: load(offset, length) makes those bytes resident
 * and returns their index in `buffer`. Reading ahead by whole buffers keeps small records to few syscalls;
 * the buffer grows only when one record is larger than it.
 */
export class FileWindow {
  buffer: Buffer;
  private fd = -1;
  private fileBytes = 0;
  private windowStart = 0;
  private windowBytes = 0;

  constructor(initialBytes: number) {
    assert(Number.isSafeInteger(initialBytes) && initialBytes > 0, 'a file window starts with room');
    this.buffer = Buffer.allocUnsafe(initialBytes);
  }

  attach(fd: number, fileBytes: number): void {
    assert(fd >= 0 && Number.isSafeInteger(fileBytes) && fileBytes >= 0, 'a window attaches to an open file of a size');
    this.fd = fd;
    this.fileBytes = fileBytes;
    this.windowStart = 0;
    this.windowBytes = 0;
  }

  load(offset: number, length: number): number {
    assert(offset >= 0 && length >= 0, 'a window loads a range of the file');
    assert(this.windowBytes <= this.buffer.length, 'the window lies inside its buffer');
    const windowEnd = this.windowStart + this.windowBytes;
    if (offset >= this.windowStart && offset + length <= windowEnd) return offset - this.windowStart;
    if (offset + length > this.fileBytes)
      throw new AssertionFailure(`FileWindow: bytes ${offset}+${length} are past the end ${this.fileBytes}`);
    // Keep the already-read bytes at and after `offset`, moved to the front.
    const keptBytes = offset >= this.windowStart && offset < windowEnd ? windowEnd - offset : 0;
    const target = length > this.buffer.length ? Buffer.allocUnsafe(length) : this.buffer;
    if (keptBytes > 0) this.buffer.copy(target, 0, offset - this.windowStart, windowEnd);
    this.buffer = target;
    this.windowStart = offset;
    this.windowBytes = keptBytes;
    const wantedBytes = Math.min(this.buffer.length, this.fileBytes - offset);
    while (this.windowBytes < wantedBytes) {
      const readBytes = readSync(
        this.fd,
        this.buffer,
        this.windowBytes,
        wantedBytes - this.windowBytes,
        offset + this.windowBytes,
      );
      if (readBytes === 0) throw new EventLogError(`a file shrank while being read (expected ${this.fileBytes} bytes)`);
      this.windowBytes += readBytes;
    }
    assert(this.windowBytes >= length, 'a load makes its bytes resident');
    return 0;
  }
}
