// The append-only event log, tally's source of truth (engine/README.md, Pipeline).
//
// A directory of segment files `NNNNNNNN.seg`, each a run of frames. A frame holds whole blocks:
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
// Invariants:
// - Blocks strictly increase across frames and segments; a frame never spans segments.
// - Only the last segment (the active one) is ever appended to. The ones before it are sealed: listed in
//   `segments.json` with their size, counts, block range and a sha256 over their bytes and counts.
//   `segments.json` is only ever replaced whole (temp file + rename).
// - A crash mid-append leaves at most one partial frame at the end of the active segment; open cuts it.
// - Bytes leave the log only through truncateAfter (`tally rewind`). When it has to reopen a sealed segment it
//   first records its intent in `segments.json`, so the next open finishes an interrupted truncate.
// - One writer per directory: `LOCK` holds the writer's pid. Read-only opens take no lock and see the log as
//   it was when they opened.
// - `ids` holds every id the log defines, read from the frames' definitions on open: a frame appended must
//   start its definitions where the dictionary ends.
import { createHash, type Hash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { BlockEvents } from '../chain/chainEvent.js';
import { IdDictionary } from './idDictionary.js';
import {
  absorbDefinitions,
  decodeBlocks,
  DEFINITIONS_HEADER_BYTES,
  encodeBlocks,
  LogCodecError,
  readDefinitionsHeader,
  type PayloadDefinitions,
} from './logCodec.js';
import { RefusedError } from '../refusedError.js';
import { fsyncDirectory } from '../fsyncDirectory.js';
import { isProcessAlive } from '../isProcessAlive.js';

export interface EventLogOptions {
  dir: string;
  /** The active segment is sealed when the next frame would take it past this size. Default 64 MiB. */
  segmentBytes?: number;
  /** fdatasync after every append. Default true. */
  durable?: boolean;
  /** Open without the writer lock; append and truncateAfter throw. */
  readOnly?: boolean;
}

export interface EventLogHead {
  /** The last block in the log, -1 when it is empty. */
  block: number;
  events: number;
  blocks: number;
  /** Segment files holding at least one frame. */
  segments: number;
  bytes: number;
}

export type VerifyResult = { ok: true } | { ok: false; segment: string; reason: string };

export interface EventLog {
  /** Bytes of a partial frame cut from the end of the active segment on open; 0 for a clean log or a read-only open. */
  readonly tornBytesCut: number;
  readonly dir: string;
  /** The ids the log defines. Grows with appends; shrinks only with truncateAfter. */
  readonly ids: IdDictionary;
  head(): EventLogHead;
  /** Writes the blocks as one frame. They must strictly increase and lie above head().block. */
  append(blocks: readonly BlockEvents[]): void;
  /**
   * Appends a frame another thread encoded with encodeLogFrame from a copy of this log's dictionary (so the
   * blocks are not encoded twice). Its header, checksums and records are verified, its first block must lie
   * above head().block and its definitions must continue the dictionary. Answers its blocks.
   */
  appendFrame(frame: Uint8Array): BlockEvents[];
  /** The blocks in (afterBlock, throughBlock], one array per frame, as the log stood when read was called. */
  read(afterBlock: number, throughBlock?: number): Generator<BlockEvents[]>;
  /** Drops every block above `block`. */
  truncateAfter(block: number): void;
  /** Recomputes every frame's crc and every sealed segment's checksum. */
  verify(): VerifyResult;
  close(): void;
}

/** The log refuses (locked by another process, damaged, misused): the command line prints it as one line. */
export class EventLogError extends RefusedError {
  override name = 'EventLogError';
}

/** Another live process holds the log's writer lock. */
export class LogLockedError extends EventLogError {
  override name = 'LogLockedError';
}

const FRAME_MAGIC = 0x32464c54; // the bytes 'TLF2'
const FORMAT_1_MAGIC = 0x31464c54; // 'TLF1': msgpack frames of hex strings, before ids
const FRAME_HEADER_BYTES = 40;
const HEADER_CRC_START = 8;
// A header claiming a larger payload is damage, not a frame; it also caps what a reader will allocate.
const MAX_PAYLOAD_BYTES = 1 << 30;
const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;
const READ_BUFFER_BYTES = 1024 * 1024;
/**
 * Loading the dictionary reads only each frame's definitions: a small window, so it does not read ahead 1 MiB a frame.
 */
const DEFINITIONS_BUFFER_BYTES = 64 * 1024;
const MANIFEST_FILE = 'segments.json';
const MANIFEST_FORMAT = 1;
const LOCK_FILE = 'LOCK';
const SEGMENT_FILE = /^(\d{8})\.seg$/;

interface FrameHeader {
  payloadBytes: number;
  payloadCrc: number;
  eventCount: number;
  blockCount: number;
  firstBlock: number;
  lastBlock: number;
}

interface SealedSegment {
  name: string;
  bytes: number;
  frames: number;
  blocks: number;
  events: number;
  firstBlock: number;
  lastBlock: number;
  sha256: string;
}

interface Manifest {
  format: typeof MANIFEST_FORMAT;
  sealed: SealedSegment[];
  /** Set while a truncateAfter that reopened sealed segments is in progress. */
  truncatingAfter: number | null;
}

/** The part of a segment a reader may look at: its name, how many bytes and which blocks. */
interface SegmentExtent {
  name: string;
  bytes: number;
  firstBlock: number;
  lastBlock: number;
}

interface ActiveSegment {
  index: number;
  /** Open for writing once the file exists, null before the first frame creates it (or when read-only). */
  fd: number | null;
  bytes: number;
  frames: number;
  blocks: number;
  events: number;
  firstBlock: number;
  lastBlock: number;
  /** sha256 of the frames so far, so sealing needs no second pass over the file. */
  hash: Hash;
}

export function openEventLog(options: EventLogOptions): EventLog {
  return new SegmentedEventLog(options);
}

/** The live process holding the log's writer lock (a fold, an ingest, a rewind), or null when none does. */
export function logWriterPid(dir: string): number | null {
  const pid = readLockPid(join(dir, LOCK_FILE));
  return pid !== null && isProcessAlive(pid) ? pid : null;
}

function segmentName(index: number): string {
  return `${String(index).padStart(8, '0')}.seg`;
}

/** Binds the counts to a sealed segment's checksum, so an edited segments.json does not verify either. */
function segmentTrailer(frames: number, blocks: number, events: number): string {
  return `\nframes ${frames} blocks ${blocks} events ${events}`;
}

function emptyActiveSegment(index: number): ActiveSegment {
  return {
    index,
    fd: null,
    bytes: 0,
    frames: 0,
    blocks: 0,
    events: 0,
    firstBlock: -1,
    lastBlock: -1,
    hash: createHash('sha256'),
  };
}

class SegmentedEventLog implements EventLog {
  readonly tornBytesCut: number;
  readonly ids = new IdDictionary();
  readonly dir: string;
  private readonly segmentBytes: number;
  private readonly durable: boolean;
  private readonly readOnly: boolean;
  private readonly lockPath: string | null;
  /** For open, verify and truncate; every read() has its own so that generators can interleave with them. */
  private readonly window = new FileWindow(READ_BUFFER_BYTES);
  private sealed: SealedSegment[] = [];
  private sealedTotals = { bytes: 0, blocks: 0, events: 0 };
  private active: ActiveSegment = emptyActiveSegment(0);
  private closed = false;

  constructor(options: EventLogOptions) {
    this.dir = options.dir;
    this.segmentBytes = options.segmentBytes ?? DEFAULT_SEGMENT_BYTES;
    this.durable = options.durable ?? true;
    this.readOnly = options.readOnly ?? false;
    if (!Number.isSafeInteger(this.segmentBytes) || this.segmentBytes <= FRAME_HEADER_BYTES) {
      throw new EventLogError(`segmentBytes must be an integer above ${FRAME_HEADER_BYTES}, got ${this.segmentBytes}`);
    }
    if (this.readOnly) {
      if (!existsSync(this.dir)) throw new EventLogError(`no event log at ${this.dir}`);
    } else {
      mkdirSync(this.dir, { recursive: true });
    }
    this.lockPath = this.readOnly ? null : acquireLock(this.dir);
    try {
      refuseFormat1(this.dir);
      this.tornBytesCut = this.load();
    } catch (error) {
      this.closeActiveFile();
      this.releaseLock();
      throw error;
    }
  }

  head(): EventLogHead {
    return {
      block: this.headBlock(),
      events: this.sealedTotals.events + this.active.events,
      blocks: this.sealedTotals.blocks + this.active.blocks,
      segments: this.sealed.length + (this.active.bytes > 0 ? 1 : 0),
      bytes: this.sealedTotals.bytes + this.active.bytes,
    };
  }

  append(blocks: readonly BlockEvents[]): void {
    this.assertWritable('append');
    if (blocks.length === 0) return;
    const headBlock = this.headBlock();
    let previousBlock = headBlock;
    for (const block of blocks) {
      if (!Number.isSafeInteger(block.block) || block.block <= previousBlock) {
        throw new EventLogError(
          previousBlock === headBlock
            ? `append: block ${block.block} is not above the log head ${headBlock}`
            : `append: block ${block.block} does not follow block ${previousBlock}`,
        );
      }
      previousBlock = block.block;
    }
    const counts = this.ids.counts();
    const frame = encodeFrame(blocks, this.ids);
    try {
      if (this.active.bytes > 0 && this.active.bytes + frame.bytes.length > this.segmentBytes) this.sealActive();
      this.writeFrame(frame);
    } catch (error) {
      this.ids.truncate(counts);
      throw error;
    }
  }

  appendFrame(frame: Uint8Array): BlockEvents[] {
    this.assertWritable('append');
    const bytes = Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
    const header = bytes.length >= FRAME_HEADER_BYTES ? decodeFrameHeader(bytes, 0) : 'shorter than a frame header';
    if (typeof header === 'string') throw new EventLogError(`appendFrame: ${header}`);
    if (bytes.length !== FRAME_HEADER_BYTES + header.payloadBytes)
      throw new EventLogError('appendFrame: length disagrees with its header');
    if (crc32(bytes.subarray(FRAME_HEADER_BYTES)) !== header.payloadCrc)
      throw new EventLogError('appendFrame: payload crc mismatch');
    const headBlock = this.headBlock();
    if (header.firstBlock <= headBlock)
      throw new EventLogError(`append: block ${header.firstBlock} is not above the log head ${headBlock}`);
    const counts = this.ids.counts();
    try {
      const payload = bytes.subarray(FRAME_HEADER_BYTES);
      absorbDefinitions(payload, this.ids);
      const blocks = decodeBlocks(payload, this.ids);
      checkFrameBlocks(blocks, header, 'appendFrame');
      if (this.active.bytes > 0 && this.active.bytes + bytes.length > this.segmentBytes) this.sealActive();
      this.writeFrame({ bytes, header });
      return blocks;
    } catch (error) {
      this.ids.truncate(counts);
      if (error instanceof LogCodecError) throw new EventLogError(`appendFrame: ${error.message}`);
      throw error;
    }
  }

  read(afterBlock: number, throughBlock: number = Number.MAX_SAFE_INTEGER): Generator<BlockEvents[]> {
    this.assertOpen('read');
    if (!Number.isSafeInteger(afterBlock) || !Number.isSafeInteger(throughBlock) || afterBlock < -1) {
      throw new EventLogError(`read: bad block range (${afterBlock}, ${throughBlock}]`);
    }
    // Taken now rather than at the first next(), so a reader sees the log exactly as it was at the call.
    const extents = this.extents();
    return readSegments(this.dir, extents, afterBlock, throughBlock, this.ids);
  }

  truncateAfter(block: number): void {
    this.assertWritable('truncateAfter');
    if (!Number.isSafeInteger(block) || block < -1) throw new EventLogError(`truncateAfter: bad block ${block}`);
    if (block >= this.headBlock()) return;
    const boundary = this.sealed.findIndex((segment) => segment.lastBlock > block);
    if (boundary !== -1) {
      // Sealed segments are about to change: say so first, so a crash part-way is finished by the next open
      // instead of leaving files that segments.json no longer describes.
      const kept = this.sealed.slice(0, boundary);
      this.writeManifest(kept, block);
      this.setSealed(kept);
    }
    this.finishTruncate(block, { afterCrash: false, manifestMarked: boundary !== -1 });
  }

  verify(): VerifyResult {
    this.assertOpen('verify');
    let previousLastBlock = -1;
    for (const [index, record] of this.sealed.entries()) {
      const name = segmentName(index);
      if (!existsSync(join(this.dir, name))) return { ok: false, segment: name, reason: 'the file is missing' };
      const fd = openSync(join(this.dir, name), 'r');
      try {
        const fileBytes = fstatSync(fd).size;
        if (fileBytes !== record.bytes) {
          return { ok: false, segment: name, reason: `${fileBytes} bytes, segments.json says ${record.bytes}` };
        }
        const hash = createHash('sha256');
        const scan = this.scanSegment(fd, fileBytes, previousLastBlock, hash);
        if (scan.problem !== null) return { ok: false, segment: name, reason: scan.problem };
        hash.update(segmentTrailer(scan.frames, scan.blocks, scan.events));
        if (hash.digest('hex') !== record.sha256)
          return { ok: false, segment: name, reason: 'sha256 differs from segments.json' };
        const mismatch = describeCountMismatch(scan, record);
        if (mismatch !== null) return { ok: false, segment: name, reason: `${mismatch} differs from segments.json` };
      } finally {
        closeSync(fd);
      }
      previousLastBlock = record.lastBlock;
    }
    const active = this.active;
    if (active.bytes === 0) return { ok: true };
    const name = segmentName(active.index);
    const fd = openSync(join(this.dir, name), 'r');
    try {
      const scan = this.scanSegment(fd, active.bytes, previousLastBlock, null);
      if (scan.problem !== null) return { ok: false, segment: name, reason: scan.problem };
      const mismatch = describeCountMismatch(scan, active);
      if (mismatch !== null)
        return { ok: false, segment: name, reason: `${mismatch} differs from the log's running count` };
    } finally {
      closeSync(fd);
    }
    return { ok: true };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.closeActiveFile();
    this.releaseLock();
  }

  private headBlock(): number {
    if (this.active.frames > 0) return this.active.lastBlock;
    return this.sealed.at(-1)?.lastBlock ?? -1;
  }

  /** Reads segments.json, the segment files and the dictionary; returns the torn bytes cut from the active segment. */
  private load(): number {
    const manifest = readManifest(this.dir);
    this.setSealed(manifest.sealed);
    if (!this.readOnly) rmSync(join(this.dir, `${MANIFEST_FILE}.tmp`), { force: true });
    let previousLastBlock = -1;
    for (const [index, record] of this.sealed.entries()) {
      const name = segmentName(index);
      if (record.name !== name) throw new EventLogError(`segments.json lists ${record.name} where ${name} belongs`);
      if (!existsSync(join(this.dir, name)))
        throw new EventLogError(`segment ${name} is sealed in segments.json but missing`);
      const fileBytes = statSync(join(this.dir, name)).size;
      if (fileBytes !== record.bytes) {
        throw new EventLogError(`segment ${name} is ${fileBytes} bytes, segments.json says ${record.bytes}`);
      }
      if (record.firstBlock <= previousLastBlock) {
        throw new EventLogError(
          `segment ${name} starts at block ${record.firstBlock}, not above block ${previousLastBlock}`,
        );
      }
      previousLastBlock = record.lastBlock;
    }
    if (manifest.truncatingAfter !== null) {
      if (this.readOnly) {
        throw new EventLogError(`${this.dir}: a truncate was interrupted; open the log writable once to finish it`);
      }
      this.finishTruncate(manifest.truncatingAfter, { afterCrash: true, manifestMarked: true });
      return 0;
    }
    const activeIndex = this.sealed.length;
    for (const index of listSegmentIndexes(this.dir)) {
      if (index > activeIndex) {
        // A reader that read segments.json just before a live writer sealed the active segment: the log as it was.
        if (this.readOnly && logWriterPid(this.dir) !== null) break;
        throw new EventLogError(
          `segment ${segmentName(index)} follows ${segmentName(activeIndex)}, which is not sealed`,
        );
      }
    }
    const tornBytes = this.loadActive(activeIndex);
    this.loadDefinitions();
    return tornBytes;
  }

  /**
   * Makes segment `index` the active one: validates its frames from the start, cuts a torn tail (when
   * writable) and rebuilds its counts and running hash. Corruption before the tail is an error.
   */
  private loadActive(index: number): number {
    this.closeActiveFile();
    const active = emptyActiveSegment(index);
    this.active = active;
    const name = segmentName(index);
    const path = join(this.dir, name);
    if (!existsSync(path)) return 0;
    const fd = openSync(path, this.readOnly ? 'r' : 'r+');
    try {
      const fileBytes = fstatSync(fd).size;
      const scan = this.scanSegment(fd, fileBytes, this.sealed.at(-1)?.lastBlock ?? -1, active.hash);
      if (scan.problem !== null && !scan.tornTail) throw new EventLogError(`segment ${name}: ${scan.problem}`);
      Object.assign(active, {
        bytes: scan.validBytes,
        frames: scan.frames,
        blocks: scan.blocks,
        events: scan.events,
        firstBlock: scan.firstBlock,
        lastBlock: scan.lastBlock,
      });
      if (this.readOnly) {
        closeSync(fd);
        return 0;
      }
      active.fd = fd;
      const tornBytes = fileBytes - scan.validBytes;
      if (tornBytes > 0) {
        ftruncateSync(fd, scan.validBytes);
        fsyncSync(fd);
      }
      return tornBytes;
    } catch (error) {
      if (active.fd !== fd) closeSync(fd);
      throw error;
    }
  }

  /** Walks one segment's frames, checking every crc; stops at the first problem. */
  private scanSegment(fd: number, fileBytes: number, previousLastBlock: number, hash: Hash | null): SegmentScan {
    const scanner = new FrameScanner(this.window, fd, fileBytes, previousLastBlock);
    const scan: SegmentScan = {
      validBytes: 0,
      frames: 0,
      blocks: 0,
      events: 0,
      firstBlock: -1,
      lastBlock: -1,
      problem: null,
      tornTail: false,
    };
    for (;;) {
      let status = scanner.next();
      if (status === FRAME) status = scanner.readPayload();
      if (status === END) break;
      if (status !== FRAME) {
        scan.problem = `byte ${scanner.offset}: ${scanner.problem}`;
        scan.tornTail = status === TORN_TAIL;
        break;
      }
      const header = scanner.header;
      hash?.update(scanner.frameBytes());
      if (scan.frames === 0) scan.firstBlock = header.firstBlock;
      scan.frames++;
      scan.blocks += header.blockCount;
      scan.events += header.eventCount;
      scan.lastBlock = header.lastBlock;
      scan.validBytes = scanner.frameEnd;
    }
    return scan;
  }

  private writeFrame(frame: EncodedFrame): void {
    const active = this.active;
    if (active.fd === null) {
      // 'wx+' fails if the file exists: a stray segment here would mean load missed it.
      active.fd = openSync(join(this.dir, segmentName(active.index)), 'wx+');
      if (this.durable) fsyncDirectory(this.dir);
    }
    try {
      writeFully(active.fd, frame.bytes, active.bytes);
    } catch (error) {
      // Leave no partial frame behind for the next append to land after (and open to call corruption).
      ftruncateSync(active.fd, active.bytes);
      // writeSync's errors (a full disk) name no file: this one does.
      (error as NodeJS.ErrnoException).path ??= join(this.dir, segmentName(active.index));
      throw error;
    }
    if (this.durable) fdatasyncSync(active.fd);
    const header = frame.header;
    if (active.frames === 0) active.firstBlock = header.firstBlock;
    active.bytes += frame.bytes.length;
    active.frames++;
    active.blocks += header.blockCount;
    active.events += header.eventCount;
    active.lastBlock = header.lastBlock;
    active.hash.update(frame.bytes);
  }

  private sealActive(): void {
    const active = this.active;
    if (active.fd === null) throw new Error('sealActive: the active segment has bytes but no open file');
    // Sealed segments are never written again, so make them durable whatever `durable` says.
    fsyncSync(active.fd);
    const sealed = [
      ...this.sealed,
      {
        name: segmentName(active.index),
        bytes: active.bytes,
        frames: active.frames,
        blocks: active.blocks,
        events: active.events,
        firstBlock: active.firstBlock,
        lastBlock: active.lastBlock,
        // A copy, so that if writing segments.json fails the segment stays active with a usable hash.
        sha256: active.hash
          .copy()
          .update(segmentTrailer(active.frames, active.blocks, active.events))
          .digest('hex'),
      },
    ];
    this.writeManifest(sealed, null);
    this.setSealed(sealed);
    this.closeActiveFile();
    // The next segment's file is created by the frame that needs it: a crash before then leaves only the
    // sealed segments, which open reads as a log whose active segment is still empty.
    this.active = emptyActiveSegment(active.index + 1);
  }

  /**
   * Deletes the segments after the first unsealed one and cuts that one after `block`. A frame straddling
   * `block` is rewritten with its kept blocks after the cut; a crash between the two leaves the log ending
   * before `block`, still a valid prefix that ingest refills. `afterCrash` (finishing an interrupted truncate)
   * also cuts at a damaged frame, which an interrupted rewrite can leave behind; `manifestMarked` says
   * segments.json carries the intent, to be cleared once the work is done.
   */
  private finishTruncate(
    block: number,
    { afterCrash, manifestMarked }: { afterCrash: boolean; manifestMarked: boolean },
  ): void {
    this.closeActiveFile();
    const boundaryIndex = this.sealed.length;
    const laterIndexes = listSegmentIndexes(this.dir).filter((index) => index > boundaryIndex);
    for (const index of laterIndexes.reverse()) unlinkSync(join(this.dir, segmentName(index)));
    const name = segmentName(boundaryIndex);
    const path = join(this.dir, name);
    let keptBlocks: BlockEvents[] = [];
    // The dictionary of the kept frames: the sealed segments', then the boundary segment's frame by frame.
    this.ids.truncate([0, 0, 0]);
    this.loadDefinitions(this.sealed);
    if (existsSync(path)) {
      const fd = openSync(path, 'r+');
      try {
        const fileBytes = fstatSync(fd).size;
        const scanner = new FrameScanner(this.window, fd, fileBytes, this.sealed.at(-1)?.lastBlock ?? -1);
        for (;;) {
          let status = scanner.next();
          if (status === FRAME && scanner.header.lastBlock <= block) {
            // Kept whole: only its definitions are needed.
            status = scanner.readDefinitions();
            if (status === FRAME) {
              absorbFrameDefinitions(name, scanner, this.ids);
              continue;
            }
          }
          if (status === FRAME && scanner.header.firstBlock <= block) {
            status = scanner.readPayload();
            if (status === FRAME) {
              // Re-encoded below from the frame's bases: the kept blocks name their new ids again, in the same order.
              const defs = absorbFrameDefinitions(name, scanner, this.ids);
              keptBlocks = decodeFrame(name, scanner, this.ids).filter((kept) => kept.block <= block);
              this.ids.truncate(defs.bases);
            }
          }
          if (status !== FRAME && status !== END && !afterCrash) {
            throw new EventLogError(`segment ${name}: byte ${scanner.offset}: ${scanner.problem}`);
          }
          break;
        }
        ftruncateSync(fd, scanner.offset);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    fsyncDirectory(this.dir);
    this.loadActive(boundaryIndex);
    if (keptBlocks.length > 0) this.writeFrame(encodeFrame(keptBlocks, this.ids));
    if (manifestMarked) this.writeManifest(this.sealed, null);
  }

  /**
   * Reads the definitions of every frame of `segments` (by default the whole log) into the dictionary, which
   * must end where they start. Only each frame's header and definitions are read; their checksums were checked
   * when the frames were written or, for the active segment, on open (`tally verify` rechecks all).
   */
  private loadDefinitions(segments: readonly SegmentExtent[] = this.extents()): void {
    const window = new FileWindow(DEFINITIONS_BUFFER_BYTES);
    let previousLastBlock = -1;
    for (const extent of segments) {
      const fd = openSync(join(this.dir, extent.name), 'r');
      try {
        const scanner = new FrameScanner(window, fd, extent.bytes, previousLastBlock);
        for (;;) {
          let status = scanner.next();
          if (status === END) break;
          if (status === FRAME) status = scanner.readDefinitions();
          if (status !== FRAME)
            throw new EventLogError(`segment ${extent.name}: byte ${scanner.offset}: ${scanner.problem}`);
          absorbFrameDefinitions(extent.name, scanner, this.ids);
        }
      } finally {
        closeSync(fd);
      }
      previousLastBlock = extent.lastBlock;
    }
  }

  /** The segments a reader may look at, as they stand now. */
  private extents(): SegmentExtent[] {
    const extents: SegmentExtent[] = this.sealed.map(({ name, bytes, firstBlock, lastBlock }) => ({
      name,
      bytes,
      firstBlock,
      lastBlock,
    }));
    const active = this.active;
    if (active.bytes > 0) {
      extents.push({
        name: segmentName(active.index),
        bytes: active.bytes,
        firstBlock: active.firstBlock,
        lastBlock: active.lastBlock,
      });
    }
    return extents;
  }

  private setSealed(sealed: SealedSegment[]): void {
    this.sealed = sealed;
    const totals = { bytes: 0, blocks: 0, events: 0 };
    for (const segment of sealed) {
      totals.bytes += segment.bytes;
      totals.blocks += segment.blocks;
      totals.events += segment.events;
    }
    this.sealedTotals = totals;
  }

  /** Replaces segments.json atomically: a reader sees the old file or the new one, never a mix. */
  private writeManifest(sealed: SealedSegment[], truncatingAfter: number | null): void {
    const manifest: Manifest = { format: MANIFEST_FORMAT, sealed, truncatingAfter };
    const path = join(this.dir, MANIFEST_FILE);
    const temporaryPath = `${path}.tmp`;
    const fd = openSync(temporaryPath, 'w');
    try {
      writeFully(fd, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 0);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporaryPath, path);
    fsyncDirectory(this.dir);
  }

  private closeActiveFile(): void {
    if (this.active.fd !== null) {
      closeSync(this.active.fd);
      this.active.fd = null;
    }
  }

  private releaseLock(): void {
    if (this.lockPath !== null && readLockPid(this.lockPath) === process.pid) unlinkSync(this.lockPath);
  }

  private assertOpen(operation: string): void {
    if (this.closed) throw new EventLogError(`${operation}: the event log at ${this.dir} is closed`);
  }

  private assertWritable(operation: string): void {
    this.assertOpen(operation);
    if (this.readOnly) throw new EventLogError(`${operation}: the event log at ${this.dir} was opened read-only`);
  }
}

interface SegmentScan {
  /** Bytes up to the end of the last good frame. */
  validBytes: number;
  frames: number;
  blocks: number;
  events: number;
  firstBlock: number;
  lastBlock: number;
  problem: string | null;
  /** The problem is a frame cut short at the end of the file, as a crash mid-append leaves it. */
  tornTail: boolean;
}

function describeCountMismatch(
  scan: SegmentScan,
  expected: { frames: number; blocks: number; events: number; firstBlock: number; lastBlock: number },
): string | null {
  for (const key of ['frames', 'blocks', 'events', 'firstBlock', 'lastBlock'] as const) {
    if (scan[key] !== expected[key]) return `${key} ${scan[key]} (expected ${expected[key]})`;
  }
  return null;
}

function* readSegments(
  dir: string,
  extents: readonly SegmentExtent[],
  afterBlock: number,
  throughBlock: number,
  ids: IdDictionary,
): Generator<BlockEvents[]> {
  const window = new FileWindow(READ_BUFFER_BYTES);
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
        const header = scanner.header;
        const blocks = decodeFrame(extent.name, scanner, ids);
        if (header.firstBlock > afterBlock && header.lastBlock <= throughBlock) {
          yield blocks;
          continue;
        }
        const inRange = blocks.filter((block) => block.block > afterBlock && block.block <= throughBlock);
        if (inRange.length > 0) yield inRange;
      }
    } finally {
      closeSync(fd);
    }
  }
}

/** Decodes the scanner's current frame, whose definitions the dictionary holds, and checks it against its header. */
function decodeFrame(segment: string, scanner: FrameScanner, ids: IdDictionary): BlockEvents[] {
  try {
    const blocks = decodeBlocks(scanner.payload(), ids);
    checkFrameBlocks(blocks, scanner.header, `segment ${segment}: byte ${scanner.offset}`);
    return blocks;
  } catch (error) {
    if (error instanceof LogCodecError)
      throw new EventLogError(`segment ${segment}: byte ${scanner.offset}: ${error.message}`);
    throw error;
  }
}

/** Adds the scanner's current frame's definitions to the dictionary (readDefinitions or readPayload loaded them). */
function absorbFrameDefinitions(segment: string, scanner: FrameScanner, ids: IdDictionary): PayloadDefinitions {
  try {
    return absorbDefinitions(scanner.payload(), ids);
  } catch (error) {
    if (error instanceof LogCodecError)
      throw new EventLogError(`segment ${segment}: byte ${scanner.offset}: ${error.message}`);
    throw error;
  }
}

function checkFrameBlocks(blocks: readonly BlockEvents[], header: FrameHeader, where: string): void {
  let events = 0;
  for (const block of blocks) events += block.events.length;
  if (
    blocks.length !== header.blockCount ||
    events !== header.eventCount ||
    blocks[0]?.block !== header.firstBlock ||
    blocks.at(-1)?.block !== header.lastBlock
  ) {
    throw new EventLogError(`${where}: payload disagrees with its frame header`);
  }
  let previous = -1;
  for (const block of blocks) {
    if (!(block.block > previous))
      throw new EventLogError(`${where}: block ${block.block} does not follow block ${previous}`);
    previous = block.block;
  }
}

interface EncodedFrame {
  bytes: Buffer;
  header: FrameHeader;
}

/**
 * A whole frame (header and payload) for appendFrame; blocks must be in increasing order. `ids` is the writer's
 * copy of the log's dictionary (opened from the log), advanced past the frame's new ids.
 */
export function encodeLogFrame(blocks: readonly BlockEvents[], ids: IdDictionary): Buffer {
  return encodeFrame(blocks, ids).bytes;
}

function encodeFrame(blocks: readonly BlockEvents[], ids: IdDictionary): EncodedFrame {
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
  return { bytes, header };
}

/** Parses and checks a frame header; returns the reason when it is not a sound one. */
function decodeFrameHeader(bytes: Buffer, at: number): FrameHeader | string {
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

const FRAME = 0;
const END = 1;
const TORN_TAIL = 2;
const CORRUPT = 3;
type ScanStatus = typeof FRAME | typeof END | typeof TORN_TAIL | typeof CORRUPT;

/**
 * Steps through one segment's frames: next() reads a header, readPayload() loads and checks the payload.
 * A problem at the very end of the file that a crash mid-append explains (short header, short payload, a
 * zero-filled or crc-failing last frame) is TORN_TAIL; anything else is CORRUPT.
 */
class FrameScanner {
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
    window.attach(fd, fileBytes);
  }

  next(): ScanStatus {
    if (this.started) {
      this.offset = this.frameEnd;
      this.previousLastBlock = this.header.lastBlock;
    }
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
    const start = this.headerIndex + FRAME_HEADER_BYTES;
    return this.window.buffer.subarray(start, start + this.loadedPayloadBytes);
  }

  /** The current frame's header and payload bytes, valid until the next call. */
  frameBytes(): Buffer {
    return this.window.buffer.subarray(
      this.headerIndex,
      this.headerIndex + FRAME_HEADER_BYTES + this.header.payloadBytes,
    );
  }

  private fail(status: ScanStatus, problem: string): ScanStatus {
    this.problem = problem;
    return status;
  }

  /** Some filesystems leave a crashed append as zeros up to the new file size. */
  private isZeroToEnd(): boolean {
    const chunkBytes = this.window.buffer.length;
    for (let at = this.offset; at < this.fileBytes; at += chunkBytes) {
      const length = Math.min(chunkBytes, this.fileBytes - at);
      const index = this.window.load(at, length);
      for (let i = index; i < index + length; i++) if (this.window.buffer[i] !== 0) return false;
    }
    return true;
  }
}

/**
 * A sliding window over one file in a reusable buffer: load(offset, length) makes those bytes resident
 * and returns their index in `buffer`. Reading ahead by whole buffers keeps small frames to few syscalls;
 * the buffer grows only when one frame is larger than it.
 */
class FileWindow {
  buffer: Buffer;
  private fd = -1;
  private fileBytes = 0;
  private windowStart = 0;
  private windowBytes = 0;

  constructor(initialBytes: number) {
    this.buffer = Buffer.allocUnsafe(initialBytes);
  }

  attach(fd: number, fileBytes: number): void {
    this.fd = fd;
    this.fileBytes = fileBytes;
    this.windowStart = 0;
    this.windowBytes = 0;
  }

  load(offset: number, length: number): number {
    const windowEnd = this.windowStart + this.windowBytes;
    if (offset >= this.windowStart && offset + length <= windowEnd) return offset - this.windowStart;
    if (offset + length > this.fileBytes)
      throw new Error(`FileWindow: bytes ${offset}+${length} are past the end ${this.fileBytes}`);
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
      if (readBytes === 0)
        throw new EventLogError(`a segment file shrank while being read (expected ${this.fileBytes} bytes)`);
      this.windowBytes += readBytes;
    }
    return 0;
  }
}

/**
 * A log of format 1 (msgpack frames of hex strings) is not read: its frames would look like damage, and a torn
 * tail would be cut. Say how to rebuild it instead.
 */
function refuseFormat1(dir: string): void {
  const first = join(dir, segmentName(0));
  if (!existsSync(first) || statSync(first).size < 4) return;
  const fd = openSync(first, 'r');
  const magic = Buffer.alloc(4);
  try {
    readSync(fd, magic, 0, 4, 0);
  } finally {
    closeSync(fd);
  }
  if (magic.readUInt32LE(0) !== FORMAT_1_MAGIC) return;
  throw new EventLogError(
    `${dir} holds an event log of format 1, which this tally no longer reads (format 2 stores binary records with ` +
      `numeric ids). Rebuild it: move ${dir} and the state beside it away, then ingest again from the source, ` +
      '`tally ingest --capture FILE` or `tally ingest --rpc URL` (`tally demo` rebuilds the demo).',
  );
}

function writeFully(fd: number, bytes: Buffer, position: number): void {
  let written = 0;
  while (written < bytes.length) {
    written += writeSync(fd, bytes, written, bytes.length - written, position + written);
  }
}

function listSegmentIndexes(dir: string): number[] {
  const indexes: number[] = [];
  for (const file of readdirSync(dir)) {
    const match = SEGMENT_FILE.exec(file);
    if (match !== null) indexes.push(Number(match[1]));
  }
  return indexes.sort((a, b) => a - b);
}

function readManifest(dir: string): Manifest {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) return { format: MANIFEST_FORMAT, sealed: [], truncatingAfter: null };
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Partial<Manifest>;
  if (
    manifest.format !== MANIFEST_FORMAT ||
    !Array.isArray(manifest.sealed) ||
    !(manifest.truncatingAfter === null || Number.isSafeInteger(manifest.truncatingAfter))
  ) {
    throw new EventLogError(`${path}: not a format ${MANIFEST_FORMAT} segment list`);
  }
  return manifest as Manifest;
}

/**
 * Takes `<dir>/LOCK` (O_EXCL) for this process, replacing a lock whose process is gone. Two processes
 * replacing the same stale lock at the same instant could both win; a stale lock plus a simultaneous
 * double start is rare enough for tally to accept.
 */
function acquireLock(dir: string): string {
  const lockPath = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      try {
        writeFully(fd, Buffer.from(String(process.pid)), 0);
      } finally {
        closeSync(fd);
      }
      return lockPath;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readLockPid(lockPath);
    if (holder !== null && isProcessAlive(holder)) {
      throw new LogLockedError(
        `log is locked by process ${holder}, which is writing ${dir} (an ingest, tally run or a rewind): let it finish or stop it first`,
      );
    }
    // Stale, or empty because its writer died between creating and filling it.
    rmSync(lockPath, { force: true });
  }
  throw new EventLogError(`could not take ${lockPath}: it keeps reappearing`);
}

function readLockPid(lockPath: string): number | null {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
