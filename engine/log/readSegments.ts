// Reads a log's blocks in a range (EventLog.read), frame by frame, skipping frames outside it by their headers, and
// decoding the others a block at a time as the caller takes them.
import type { BlockEvents } from '../chain/chainEvent.js';
import type { IdDictionary } from './idDictionary.js';
import { decodeFrame } from './frameScanner.js';
import type { SegmentExtent } from './segmentManifest.js';
import { readCheckedPayload, segmentFrames } from './segmentFrames.js';
import { assert } from '../assert.js';

export function* readSegments(
  dir: string,
  extents: readonly SegmentExtent[],
  afterBlock: number,
  throughBlock: number,
  ids: IdDictionary,
): Generator<BlockEvents> {
  // EventLog.read refused any other range.
  assert(Number.isSafeInteger(afterBlock) && afterBlock >= -1, 'a read starts at a block or before the log');
  for (const { segment, scanner } of segmentFrames(dir, extents, afterBlock)) {
    // Skipped frames cost one header read: their payload is never loaded.
    if (scanner.header.lastBlock <= afterBlock) continue;
    if (scanner.header.firstBlock > throughBlock) return;
    readCheckedPayload(segment, scanner);
    // Each block decoded as the caller takes it, and the whole frame before the scanner moves on (its checks come at
    // its end, and the next frame reuses the window the blocks are read from).
    for (const block of decodeFrame(segment, scanner, ids))
      if (block.block > afterBlock && block.block <= throughBlock) yield block;
  }
}
