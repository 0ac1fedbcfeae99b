// Reads a log's frames as they are stored (EventLog.frames): the unit `tally publish` ships to a JetStream stream
// and a replica appends to its own log, so that both logs hold the same bytes.
import { EventLogError } from './eventLogError.js';
import type { FrameHeader } from './logFrame.js';
import type { SegmentExtent } from './segmentManifest.js';
import { readCheckedPayload, segmentFrames } from './segmentFrames.js';
import { FRAME_HEADER_BYTES } from './logFrame.js';
import { assert } from '../assert.js';

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
  for (const { segment, scanner } of segmentFrames(dir, extents, afterBlock)) {
    const { header } = scanner;
    if (header.lastBlock <= afterBlock) continue;
    if (header.firstBlock <= afterBlock) {
      throw new FrameBoundaryError(
        `frames after block ${afterBlock}: the log's frame of blocks ${header.firstBlock}..${header.lastBlock} holds that block and more`,
      );
    }
    readCheckedPayload(segment, scanner);
    const bytes = Buffer.from(scanner.frameBytes());
    assert(bytes.length === FRAME_HEADER_BYTES + header.payloadBytes, 'a stored frame is its header and its payload');
    yield { header, bytes };
  }
}
