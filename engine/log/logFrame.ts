// The log's frames (engine/log/eventLog.ts): a frame holds whole blocks.
//   header, 40 bytes, little-endian
//      0  magic 'TLF2' (format 2: binary records with numeric ids; 'TLF1' was msgpack, refused with how to rebuild)
//      4  crc32 of header bytes 8..40 (so a torn payload and a damaged header are told apart)
//      8  payload bytes (u32)
//     12  crc32 of the payload
//     16  event count (u32)
//     20  block count (u32)
//     24  first block (f64 holding a safe integer)
//     32  last block (f64)
//   payload: logCodec's encoding of the frame's blocks, starting with the definitions of the ids it names first.
import { crc32 } from 'node:zlib';
import type { BlockEvents } from '../chain/chainEvent.js';
import type { IdDictionary } from './idDictionary.js';
import { encodeBlocks, LogCodecError } from './logCodec.js';
import { EventLogError } from './eventLogError.js';
import { assert } from '../assert.js';

export const FRAME_MAGIC = 0x32464c54; // the bytes 'TLF2'
export const FORMAT_1_MAGIC = 0x31464c54; // 'TLF1': msgpack frames of hex strings, before ids
export const FRAME_HEADER_BYTES = 40;
const HEADER_CRC_START = 8;
// A header claiming a larger payload is damage, not a frame; it also caps what a reader will allocate.
const MAX_PAYLOAD_BYTES = 1 << 30;

export interface FrameHeader {
  payloadBytes: number;
  payloadCrc: number;
  eventCount: number;
  blockCount: number;
  firstBlock: number;
  lastBlock: number;
}

/** The blocks, each checked as it is taken against the frame's header and its predecessor; their counts at the end. */
export function* checkedFrameBlocks(
  blocks: Iterable<BlockEvents>,
  header: FrameHeader,
  where: string,
): Generator<BlockEvents> {
  // decodeFrameHeader refuses a header of no block or of a range too short for its blocks.
  assert(header.blockCount > 0 && header.firstBlock <= header.lastBlock, 'a frame header names at least one block');
  let count = 0;
  let events = 0;
  let previous = -1;
  for (const block of blocks) {
    if (count === 0 && block.block !== header.firstBlock)
      throw new EventLogError(`${where}: payload disagrees with its frame header`);
    if (!(block.block > previous))
      throw new EventLogError(`${where}: block ${block.block} does not follow block ${previous}`);
    previous = block.block;
    count++;
    events += block.events.length;
    yield block;
  }
  if (count !== header.blockCount || events !== header.eventCount || previous !== header.lastBlock)
    throw new EventLogError(`${where}: payload disagrees with its frame header`);
}

export interface EncodedFrame {
  bytes: Buffer;
  header: FrameHeader;
}

/**
 * A whole frame (header and payload) for openFrame; blocks must be in increasing order. `ids` is the writer's
 * copy of the log's dictionary (opened from the log), advanced past the frame's new ids.
 */
export function encodeLogFrame(blocks: readonly BlockEvents[], ids: IdDictionary): Buffer {
  return encodeFrame(blocks, ids).bytes;
}

export function encodeFrame(blocks: readonly BlockEvents[], ids: IdDictionary): EncodedFrame {
  // Its writers skip an empty batch: a frame of no block has no first block for its header.
  assert(blocks.length > 0, 'a frame holds at least one block');
  const bases = ids.counts();
  let encoded;
  try {
    // Room for the header before the payload: the frame is then written without a copy.
    encoded = encodeBlocks(blocks, ids, FRAME_HEADER_BYTES);
  } catch (error) {
    if (error instanceof LogCodecError) throw new EventLogError(`append: ${error.message}`);
    throw error;
  }
  const { bytes, payload } = encoded;
  if (payload.length > MAX_PAYLOAD_BYTES) {
    ids.truncate(bases);
    throw new EventLogError(
      `append: blocks ${blocks[0]!.block}..${blocks.at(-1)!.block} encode to ${payload.length} bytes, over one frame's limit`,
    );
  }
  let eventCount = 0;
  for (const block of blocks) eventCount += block.events.length;
  const header: FrameHeader = {
    payloadBytes: payload.length,
    payloadCrc: crc32(payload),
    eventCount,
    blockCount: blocks.length,
    firstBlock: blocks[0]!.block,
    lastBlock: blocks.at(-1)!.block,
  };
  bytes.writeUInt32LE(FRAME_MAGIC, 0);
  bytes.writeUInt32LE(header.payloadBytes, 8);
  bytes.writeUInt32LE(header.payloadCrc, 12);
  bytes.writeUInt32LE(header.eventCount, 16);
  bytes.writeUInt32LE(header.blockCount, 20);
  bytes.writeDoubleLE(header.firstBlock, 24);
  bytes.writeDoubleLE(header.lastBlock, 32);
  bytes.writeUInt32LE(crc32(bytes.subarray(HEADER_CRC_START, FRAME_HEADER_BYTES)), 4);
  assert(bytes.length === FRAME_HEADER_BYTES + header.payloadBytes, 'a frame is its header and its payload');
  return { bytes, header };
}

/** Parses and checks a frame header; returns the reason when it is not a sound one. */
export function decodeFrameHeader(bytes: Buffer, at: number): FrameHeader | string {
  // Its callers load or check the header's bytes first (the scanner's window, openFrame's length check).
  assert(at >= 0 && at + FRAME_HEADER_BYTES <= bytes.length, 'a frame header is read from whole bytes');
  if (bytes.readUInt32LE(at) !== FRAME_MAGIC) return 'no frame magic';
  if (bytes.readUInt32LE(at + 4) !== crc32(bytes.subarray(at + HEADER_CRC_START, at + FRAME_HEADER_BYTES))) {
    return 'frame header crc mismatch';
  }
  const header: FrameHeader = {
    payloadBytes: bytes.readUInt32LE(at + 8),
    payloadCrc: bytes.readUInt32LE(at + 12),
    eventCount: bytes.readUInt32LE(at + 16),
    blockCount: bytes.readUInt32LE(at + 20),
    firstBlock: bytes.readDoubleLE(at + 24),
    lastBlock: bytes.readDoubleLE(at + 32),
  };
  if (
    header.payloadBytes > MAX_PAYLOAD_BYTES ||
    header.blockCount === 0 ||
    !Number.isSafeInteger(header.firstBlock) ||
    !Number.isSafeInteger(header.lastBlock) ||
    header.lastBlock - header.firstBlock + 1 < header.blockCount
  ) {
    return `implausible frame header (blocks ${header.firstBlock}..${header.lastBlock}, ${header.blockCount} blocks, ${header.payloadBytes} payload bytes)`;
  }
  return header;
}
