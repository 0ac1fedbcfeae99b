// Reads a log's frames as they are stored (EventLog.frames): the unit `tally publish` ships to a JetStream stream
// and a replica appends to its own log, so that both logs hold the same bytes.
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { EventLogError } from './eventLogError.js';
import { FileWindow } from './fileWindow.js';
import { LOG_READ_BUFFER_BYTES } from '../limits.js';
import { END, FRAME, FrameScanner } from './frameScanner.js';
import type { FrameHeader } from './logFrame.js';
import type { SegmentExtent } from './segmentManifest.js';

/** Frames were asked for after a block that does not end one. */
export class FrameBoundaryError extends EventLogError {}

export interface StoredFrame {
  header: FrameHeader;
  /** The frame's header and payload, a copy the caller keeps. */
  bytes: Buffer;
}

/** The frames whose blocks all lie above `afterBlock`, which must end a frame (or precede the log). */
export function* readFrameBytes(
  dir: string,
  extents: readonly SegmentExtent[],
  afterBlock: number,
): Generator<StoredFrame> {
  const window = new FileWindow(LOG_READ_BUFFER_BYTES);
  for (const [index, extent] of extents.entries()) {
    if (extent.lastBlock <= afterBlock) continue;
    const fd = openSync(join(dir, extent.name), 'r');
    try {
      const scanner = new FrameScanner(window, fd, extent.bytes, extents[index - 1]?.lastBlock ?? -1);
      for (;;) {
        let status = scanner.next();
        if (status === END) break;
        if (status === FRAME && scanner.header.lastBlock <= afterBlock) continue;
        if (status === FRAME && scanner.header.firstBlock <= afterBlock) {
          throw new FrameBoundaryError(
            `frames after block ${afterBlock}: the log's frame of blocks ${scanner.header.firstBlock}..${scanner.header.lastBlock} holds that block and more`,
          );
        }
        if (status === FRAME) status = scanner.readPayload();
        if (status !== FRAME)
          throw new EventLogError(`segment ${extent.name}: byte ${scanner.offset}: ${scanner.problem}`);
        yield { header: scanner.header, bytes: Buffer.from(scanner.frameBytes()) };
      }
    } finally {
      closeSync(fd);
    }
  }
}
