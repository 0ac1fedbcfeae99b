// Steps through the frames of a log's segments (readSegments.ts reads their blocks, readFrameBytes.ts their bytes):
// each segment that reaches past `afterBlock` opened in turn, each frame's header read; the caller loads what it
// needs of the frame (the scanner's readPayload) before taking the next.
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { EventLogError } from './eventLogError.js';
import { FileWindow } from './fileWindow.js';
import { LOG_READ_BUFFER_BYTES } from '../limits.js';
import { END, FRAME, FrameScanner } from './frameScanner.js';
import type { SegmentExtent } from './segmentManifest.js';
import { assert } from '../assert.js';

export function* segmentFrames(
  dir: string,
  extents: readonly SegmentExtent[],
  afterBlock: number,
): Generator<{ segment: string; scanner: FrameScanner }> {
  // EventLog.read and frames refused any other block.
  assert(Number.isSafeInteger(afterBlock) && afterBlock >= -1, 'frames are taken after a block or before the log');
  const window = new FileWindow(LOG_READ_BUFFER_BYTES);
  for (const [index, extent] of extents.entries()) {
    if (extent.lastBlock <= afterBlock) continue;
    const fd = openSync(join(dir, extent.name), 'r');
    try {
      const scanner = new FrameScanner(window, fd, extent.bytes, extents[index - 1]?.lastBlock ?? -1);
      for (;;) {
        const status = scanner.next();
        if (status === END) break;
        if (status !== FRAME)
          throw new EventLogError(`segment ${extent.name}: byte ${scanner.offset}: ${scanner.problem}`);
        yield { segment: extent.name, scanner };
      }
    } finally {
      closeSync(fd);
    }
  }
}

/** Loads the current frame's payload and checks it, or throws naming where it is damaged. */
export function readCheckedPayload(segment: string, scanner: FrameScanner): void {
  if (scanner.readPayload() !== FRAME)
    throw new EventLogError(`segment ${segment}: byte ${scanner.offset}: ${scanner.problem}`);
  assert(scanner.payload().length === scanner.header.payloadBytes, 'a checked payload is loaded whole');
}
