// Reads a log's blocks in a range (EventLog.read), frame by frame, skipping frames outside it by their headers, and
// decoding the others a block at a time as the caller takes them.
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { BlockEvents } from '../chain/chainEvent.js';
import type { IdDictionary } from './idDictionary.js';
import { EventLogError } from './eventLogError.js';
import { FileWindow } from './fileWindow.js';
import { LOG_READ_BUFFER_BYTES } from '../limits.js';
import { decodeFrame, END, FRAME, FrameScanner } from './frameScanner.js';
import type { SegmentExtent } from './segmentManifest.js';

export function* readSegments(
  dir: string,
  extents: readonly SegmentExtent[],
  afterBlock: number,
  throughBlock: number,
  ids: IdDictionary,
): Generator<BlockEvents> {
  const window = new FileWindow(LOG_READ_BUFFER_BYTES);
  for (const [index, extent] of extents.entries()) {
    if (extent.lastBlock <= afterBlock) continue;
    if (extent.firstBlock > throughBlock) return;
    const fd = openSync(join(dir, extent.name), 'r');
    try {
      const scanner = new FrameScanner(window, fd, extent.bytes, extents[index - 1]?.lastBlock ?? -1);
      for (;;) {
        let status = scanner.next();
        if (status === END) break;
        // Skipped frames cost one header read: their payload is never loaded.
        if (status === FRAME && scanner.header.lastBlock <= afterBlock) continue;
        if (status === FRAME && scanner.header.firstBlock > throughBlock) return;
        if (status === FRAME) status = scanner.readPayload();
        if (status !== FRAME)
          throw new EventLogError(`segment ${extent.name}: byte ${scanner.offset}: ${scanner.problem}`);
        // Each block decoded as the caller takes it, and the whole frame before the scanner moves on (its checks
        // come at its end, and the next frame reuses the window the blocks are read from).
        for (const block of decodeFrame(extent.name, scanner, ids))
          if (block.block > afterBlock && block.block <= throughBlock) yield block;
      }
    } finally {
      closeSync(fd);
    }
  }
}
