// Steps through one segment's frames (engine/log/eventLog.ts), telling a torn tail from damage, and decodes them.
import { crc32 } from 'node:zlib';
import type { BlockEvents } from '../chain/chainEvent.js';
import type { IdDictionary } from './idDictionary.js';
import {
  absorbDefinitions,
  decodePayloadBlocks,
  DEFINITIONS_HEADER_BYTES,
  LogCodecError,
  readDefinitionsHeader,
  type PayloadDefinitions,
} from './logCodec.js';
import { EventLogError } from './eventLogError.js';
import type { FileWindow } from './fileWindow.js';
import { checkedFrameBlocks, decodeFrameHeader, FRAME_HEADER_BYTES, type FrameHeader } from './logFrame.js';
import { assert } from '../assert.js';

export const FRAME = 0;
export const END = 1;
export const TORN_TAIL = 2;
export const CORRUPT = 3;
export type ScanStatus = typeof FRAME | typeof END | typeof TORN_TAIL | typeof CORRUPT;

/**
 * Steps through one segment's frames: next() reads a header, readPayload() loads and checks the payload.
 * A problem at the very end of the file that a crash mid-append explains (short header, short payload, a
 * zero-filled or crc-failing last frame) is TORN_TAIL; anything else is CORRUPT.
 */
export class FrameScanner {
  /** Where the current frame (or the problem) starts. */
  offset = 0;
  frameEnd = 0;
  problem = '';
  header!: FrameHeader;
  private headerIndex = 0;
  private loadedPayloadBytes = 0;
  private started = false;

  constructor(
    private readonly window: FileWindow,
    fd: number,
    private readonly fileBytes: number,
    /** The last block before this segment: the first frame must start above it. */
    private previousLastBlock: number,
  ) {
    // A stat's size, or a sealed segment's that open checked against its stat.
    assert(Number.isSafeInteger(fileBytes) && fileBytes >= 0, 'a segment scanned has a byte size');
    window.attach(fd, fileBytes);
  }

  next(): ScanStatus {
    if (this.started) {
      this.offset = this.frameEnd;
      this.previousLastBlock = this.header.lastBlock;
    }
    // A frame is taken only when it ends inside the file, so the next one starts inside it too.
    assert(this.offset <= this.fileBytes, 'a scanner never steps past its file');
    const remaining = this.fileBytes - this.offset;
    if (remaining === 0) return END;
    if (remaining < FRAME_HEADER_BYTES) return this.fail(TORN_TAIL, `${remaining} bytes where a frame header belongs`);
    const index = this.window.load(this.offset, FRAME_HEADER_BYTES);
    const header = decodeFrameHeader(this.window.buffer, index);
    if (typeof header === 'string') {
      return this.fail(this.isZeroToEnd() ? TORN_TAIL : CORRUPT, header);
    }
    if (header.firstBlock <= this.previousLastBlock) {
      return this.fail(
        CORRUPT,
        `frame of blocks ${header.firstBlock}..${header.lastBlock} does not follow block ${this.previousLastBlock}`,
      );
    }
    const frameEnd = this.offset + FRAME_HEADER_BYTES + header.payloadBytes;
    if (frameEnd > this.fileBytes) {
      return this.fail(
        TORN_TAIL,
        `frame of ${header.payloadBytes} payload bytes cut short at ${this.fileBytes - this.offset - FRAME_HEADER_BYTES}`,
      );
    }
    this.header = header;
    this.headerIndex = index;
    this.frameEnd = frameEnd;
    this.started = true;
    return FRAME;
  }

  readPayload(): ScanStatus {
    assert(this.isOnFrame(), 'a payload is read for the frame next() just took');
    this.headerIndex = this.window.load(this.offset, this.frameEnd - this.offset);
    this.loadedPayloadBytes = this.header.payloadBytes;
    if (crc32(this.payload()) !== this.header.payloadCrc) {
      return this.fail(this.frameEnd === this.fileBytes ? TORN_TAIL : CORRUPT, 'frame payload crc mismatch');
    }
    return FRAME;
  }

  /**
   * Loads only the current frame's definitions (for the dictionary), unchecked: payload() then answers just
   * them. The crc covers the whole payload; open checked the active segment's and verify checks every one.
   */
  readDefinitions(): ScanStatus {
    assert(this.isOnFrame(), 'definitions are read for the frame next() just took');
    const payloadBytes = this.header.payloadBytes;
    if (payloadBytes < DEFINITIONS_HEADER_BYTES)
      return this.fail(CORRUPT, 'payload shorter than its definitions header');
    const start = this.window.load(this.offset, FRAME_HEADER_BYTES + DEFINITIONS_HEADER_BYTES) + FRAME_HEADER_BYTES;
    const defs = readDefinitionsHeader(this.window.buffer.subarray(start, start + DEFINITIONS_HEADER_BYTES));
    if (defs.bytes > payloadBytes) return this.fail(CORRUPT, 'frame definitions run past its payload');
    this.headerIndex = this.window.load(this.offset, FRAME_HEADER_BYTES + defs.bytes);
    this.loadedPayloadBytes = defs.bytes;
    return FRAME;
  }

  /** The current frame's payload as loaded (whole after readPayload), valid until the next call. */
  payload(): Buffer {
    assert(this.loadedPayloadBytes <= this.header.payloadBytes, 'a payload loaded lies inside its frame');
    const start = this.headerIndex + FRAME_HEADER_BYTES;
    return this.window.buffer.subarray(start, start + this.loadedPayloadBytes);
  }

  /** The current frame's header and payload bytes, valid until the next call. */
  frameBytes(): Buffer {
    assert(
      this.loadedPayloadBytes === this.header.payloadBytes,
      "a frame's bytes are taken once its payload is loaded",
    );
    return this.window.buffer.subarray(
      this.headerIndex,
      this.headerIndex + FRAME_HEADER_BYTES + this.header.payloadBytes,
    );
  }

  /** The scanner stands on the frame next() last took: nothing has moved it since. */
  private isOnFrame(): boolean {
    return this.started && this.frameEnd === this.offset + FRAME_HEADER_BYTES + this.header.payloadBytes;
  }

  private fail(status: ScanStatus, problem: string): ScanStatus {
    this.problem = problem;
    return status;
  }

  /** Some filesystems leave a crashed append as zeros up to the new file size. */
  private isZeroToEnd(): boolean {
    const chunkBytes = this.window.buffer.length;
    assert(chunkBytes > 0, 'a window reads at least a byte at a time');
    for (let at = this.offset; at < this.fileBytes; at += chunkBytes) {
      const length = Math.min(chunkBytes, this.fileBytes - at);
      const index = this.window.load(at, length);
      for (let i = index; i < index + length; i++) if (this.window.buffer[i] !== 0) return false;
    }
    return true;
  }
}

/**
 * The scanner's current frame's blocks, decoded as they are taken (decodePayloadBlocks) and checked against its
 * header; its definitions must be in the dictionary. Valid until the scanner's next call.
 */
export function* decodeFrame(segment: string, scanner: FrameScanner, ids: IdDictionary): Generator<BlockEvents> {
  // readPayload loaded it whole (readSegments, a truncate's straddling frame): its blocks are decoded from all of it.
  assert(scanner.payload().length === scanner.header.payloadBytes, 'a frame is decoded from its whole payload');
  const where = `segment ${segment}: byte ${scanner.offset}`;
  try {
    yield* checkedFrameBlocks(decodePayloadBlocks(scanner.payload(), ids), scanner.header, where);
  } catch (error) {
    if (error instanceof LogCodecError) throw new EventLogError(`${where}: ${error.message}`);
    throw error;
  }
}

/** Adds the scanner's current frame's definitions to the dictionary (readDefinitions or readPayload loaded them). */
export function absorbFrameDefinitions(segment: string, scanner: FrameScanner, ids: IdDictionary): PayloadDefinitions {
  try {
    return absorbDefinitions(scanner.payload(), ids);
  } catch (error) {
    if (error instanceof LogCodecError)
      throw new EventLogError(`segment ${segment}: byte ${scanner.offset}: ${error.message}`);
    throw error;
  }
}
