// The append-only event log, tally's source of truth (engine/README.md, Pipeline).
//
// A directory of segment files `NNNNNNNN.seg` (segmentManifest.ts), each a run of frames (logFrame.ts) that hold
// whole blocks.
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
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { BlockEvents } from '../chain/chainEvent.js';
import { IdDictionary } from './idDictionary.js';
import { absorbDefinitions, decodePayloadBlocks, LogCodecError } from './logCodec.js';
import { assert, AssertionFailure } from '../assert.js';
import { fsyncDirectory } from '../fsyncDirectory.js';
import { writeFully } from '../writeFully.js';
import { EventLogError } from './eventLogError.js';
import { FileWindow } from './fileWindow.js';
import { absorbFrameDefinitions, decodeFrame, END, FRAME, FrameScanner, TORN_TAIL } from './frameScanner.js';
import { acquireLock, logWriterPid, releaseLock } from './logLock.js';
import {
  checkedFrameBlocks,
  decodeFrameHeader,
  encodeFrame,
  FRAME_HEADER_BYTES,
  type EncodedFrame,
  type FrameHeader,
} from './logFrame.js';
import { readSegments } from './readSegments.js';
import { readFrameBytes, type StoredFrame } from './readFrameBytes.js';
import {
  listSegmentIndexes,
  MANIFEST_FILE,
  readManifest,
  refuseFormat1,
  segmentName,
  segmentTrailer,
  writeManifest,
  type SealedSegment,
  type SegmentCounts,
  type SegmentExtent,
} from './segmentManifest.js';
import { LOG_DEFINITIONS_BUFFER_BYTES, LOG_READ_BUFFER_BYTES, LOG_SEGMENT_BYTES } from '../limits.js';

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

/** A frame checked but not yet appended (EventLog.openFrame). */
export interface OpenedFrame {
  header: FrameHeader;
  /** Its blocks, each decoded and checked as it is taken. */
  blocks: Generator<BlockEvents>;
  /** Writes the frame; every block must have been taken. */
  append(): void;
  /** Forgets its definitions unless it was appended (a refused frame, or a fold that failed on it). */
  discard(): void;
}

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
   * A frame another thread encoded with encodeLogFrame from a copy of this log's dictionary (so the blocks are not
   * encoded twice), to append in steps as a fold takes its blocks: its header, checksum and definitions are checked
   * now (its first block must lie above head().block, its definitions must continue the dictionary, which they
   * join), each block as it is taken, and `append` writes the frame once every block was taken. Nothing else is
   * appended until it is appended or discarded.
   */
  openFrame(frame: Uint8Array): OpenedFrame;
  /**
   * The blocks in (afterBlock, throughBlock], as the log stood when read was called, each decoded as it is taken
   * (a block's events are garbage as soon as the caller is done with them).
   */
  read(afterBlock: number, throughBlock?: number): Generator<BlockEvents>;
  /**
   * The frames whose blocks lie above `afterBlock`, as stored, as the log stood when called; `afterBlock` must end
   * a frame (readFrameBytes.ts).
   */
  frames(afterBlock: number): Generator<StoredFrame>;
  /** Drops every block above `block`. */
  truncateAfter(block: number): void;
  /** Recomputes every frame's crc and every sealed segment's checksum. */
  verify(): VerifyResult;
  close(): void;
}

interface ActiveSegment extends SegmentCounts {
  index: number;
  /** Open for writing once the file exists, null before the first frame creates it (or when read-only). */
  fd: number | null;
  /** sha256 of the frames so far, so sealing needs no second pass over the file. */
  hash: Hash;
}

export function openEventLog(options: EventLogOptions): EventLog {
  return new SegmentedEventLog(options);
}

function emptyActiveSegment(index: number): ActiveSegment {
  assert(Number.isSafeInteger(index) && index >= 0, 'a segment index counts from 0');
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
  private readonly window = new FileWindow(LOG_READ_BUFFER_BYTES);
  private sealed: SealedSegment[] = [];
  private sealedTotals = { bytes: 0, blocks: 0, events: 0 };
  private active: ActiveSegment = emptyActiveSegment(0);
  private closed = false;

  constructor(options: EventLogOptions) {
    this.dir = options.dir;
    this.segmentBytes = options.segmentBytes ?? LOG_SEGMENT_BYTES;
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
      assert(this.tornBytesCut === 0 || !this.readOnly, 'a read-only open cuts nothing');
    } catch (error) {
      this.closeActiveFile();
      this.releaseLock();
      throw error;
    }
  }

  head(): EventLogHead {
    assert(this.active.bytes > 0 === this.active.frames > 0, 'the active segment has bytes when it has frames');
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
    assert(this.headBlock() === previousBlock, 'an append moves the head to its last block');
  }

  openFrame(frame: Uint8Array): OpenedFrame {
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
    const payload = bytes.subarray(FRAME_HEADER_BYTES);
    try {
      absorbDefinitions(payload, this.ids);
    } catch (error) {
      this.ids.truncate(counts);
      if (error instanceof LogCodecError) throw new EventLogError(`appendFrame: ${error.message}`);
      throw error;
    }
    let state: 'open' | 'taken' | 'appended' | 'discarded' = 'open';
    const ids = this.ids;
    const blocks = (function* (): Generator<BlockEvents> {
      try {
        yield* checkedFrameBlocks(decodePayloadBlocks(payload, ids), header, 'appendFrame');
      } catch (error) {
        if (error instanceof LogCodecError) throw new EventLogError(`appendFrame: ${error.message}`);
        throw error;
      }
      // A discard mid-way ends the generator at its yield, never here.
      assert(state === 'open', "a frame's blocks are taken once");
      state = 'taken';
    })();
    return {
      header,
      blocks,
      append: () => {
        assert(state === 'taken', `appendFrame: a frame is appended once, after its last block (${state})`);
        if (this.active.bytes > 0 && this.active.bytes + bytes.length > this.segmentBytes) this.sealActive();
        this.writeFrame({ bytes, header });
        state = 'appended';
      },
      discard: () => {
        if (state === 'appended' || state === 'discarded') return;
        // Its blocks would name ids the dictionary no longer holds.
        blocks.return(undefined);
        this.ids.truncate(counts);
        state = 'discarded';
      },
    };
  }

  read(afterBlock: number, throughBlock: number = Number.MAX_SAFE_INTEGER): Generator<BlockEvents> {
    this.assertOpen('read');
    if (!Number.isSafeInteger(afterBlock) || !Number.isSafeInteger(throughBlock) || afterBlock < -1) {
      throw new EventLogError(`read: bad block range (${afterBlock}, ${throughBlock}]`);
    }
    // Taken now rather than at the first next(), so a reader sees the log exactly as it was at the call.
    const extents = this.extents();
    return readSegments(this.dir, extents, afterBlock, throughBlock, this.ids);
  }

  frames(afterBlock: number): Generator<StoredFrame> {
    this.assertOpen('frames');
    if (!Number.isSafeInteger(afterBlock) || afterBlock < -1)
      throw new EventLogError(`frames: bad block ${afterBlock}`);
    return readFrameBytes(this.dir, this.extents(), afterBlock);
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
      writeManifest(this.dir, kept, block);
      this.setSealed(kept);
    }
    this.finishTruncate(block, { afterCrash: false, manifestMarked: boundary !== -1 });
    assert(this.headBlock() <= block, 'a truncate leaves no block above its cut');
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
    assert(this.active.fd === null, 'a closed log holds no segment file open');
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
    assert(this.active.index === this.sealed.length, 'the active segment is the one after the sealed ones');
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
      assert(scan.validBytes <= fileBytes, 'a scan ends inside its file');
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
    assert(scan.frames > 0 || scan.validBytes === 0, 'a scan of no frame keeps no byte');
    return scan;
  }

  private writeFrame(frame: EncodedFrame): void {
    const active = this.active;
    // append and openFrame checked it; a truncate rewrites a frame's kept blocks after the frames it kept whole.
    assert(!(frame.header.firstBlock <= this.headBlock()), "a frame appended starts above the log's head");
    assert(frame.bytes.length === FRAME_HEADER_BYTES + frame.header.payloadBytes, 'a frame is its header and payload');
    assert(active.index === this.sealed.length, 'frames go to the segment after the sealed ones');
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
    if (active.fd === null) throw new AssertionFailure('sealActive: the active segment has bytes but no open file');
    assert(active.frames > 0, 'a segment sealed holds a frame');
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
    writeManifest(this.dir, sealed, null);
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
              keptBlocks = [...decodeFrame(name, scanner, this.ids)].filter((kept) => kept.block <= block);
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
    if (manifestMarked) writeManifest(this.dir, this.sealed, null);
  }

  /**
   * Reads the definitions of every frame of `segments` (by default the whole log) into the dictionary, which
   * must end where they start. Only each frame's header and definitions are read; their checksums were checked
   * when the frames were written or, for the active segment, on open (`tally verify` rechecks all).
   */
  private loadDefinitions(segments: readonly SegmentExtent[] = this.extents()): void {
    const window = new FileWindow(LOG_DEFINITIONS_BUFFER_BYTES);
    let previousLastBlock = -1;
    try {
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
    } catch (error) {
      // Definitions are read without their frames' checksums, so damage to one segment's definitions can surface in
      // a later one (a value flipped into one defined again further on): the checksums name the damaged segment.
      if (!(error instanceof EventLogError)) throw error;
      const found = this.verify();
      if (!found.ok) throw new EventLogError(`segment ${found.segment}: ${found.reason}`);
      throw error;
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
    // What open checked of segments.json, and the scanner of every frame since: each segment starts above the last.
    for (let i = 1; i < extents.length; i++)
      assert(!(extents[i]!.firstBlock <= extents[i - 1]!.lastBlock), 'sealed segments follow one another');
    assert(
      active.bytes === 0 || !(active.firstBlock <= (this.sealed.at(-1)?.lastBlock ?? -1)),
      'the active segment follows the sealed ones',
    );
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

  private closeActiveFile(): void {
    if (this.active.fd !== null) {
      closeSync(this.active.fd);
      this.active.fd = null;
    }
  }

  private releaseLock(): void {
    if (this.lockPath !== null) releaseLock(this.lockPath);
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
