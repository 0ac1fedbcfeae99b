// The log's segment files and their list (engine/log/eventLog.ts): `NNNNNNNN.seg`, and `segments.json` holding the
// sealed ones with their size, counts, block range and checksum, replaced only whole.
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { fsyncDirectory } from '../fsyncDirectory.js';
import { writeFully } from '../writeFully.js';
import { EventLogError } from './eventLogError.js';
import { FORMAT_1_MAGIC } from './logFrame.js';
import { assert } from '../assert.js';

export const MANIFEST_FILE = 'segments.json';
const MANIFEST_FORMAT = 1;
const SEGMENT_FILE = /^(\d{8})\.seg$/;

/** What a segment holds: its size, counts and block range. */
export interface SegmentCounts {
  bytes: number;
  frames: number;
  blocks: number;
  events: number;
  firstBlock: number;
  lastBlock: number;
}

export interface SealedSegment extends SegmentCounts {
  name: string;
  sha256: string;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  sealed: SealedSegment[];
  /** Set while a truncateAfter that reopened sealed segments is in progress. */
  truncatingAfter: number | null;
}

/** The part of a segment a reader may look at: its name, how many bytes and which blocks. */
export interface SegmentExtent {
  name: string;
  bytes: number;
  firstBlock: number;
  lastBlock: number;
}

export function segmentName(index: number): string {
  // Indexes count segments from 0 (or come from an eight-digit name).
  assert(Number.isSafeInteger(index) && index >= 0 && index < 1e8, 'a segment index fits eight digits');
  return `${String(index).padStart(8, '0')}.seg`;
}

/** Binds the counts to a sealed segment's checksum, so an edited segments.json does not verify either. */
export function segmentTrailer(frames: number, blocks: number, events: number): string {
  // Counted frame by frame, each of at least one block (decodeFrameHeader, encodeFrame).
  assert(frames >= 0 && blocks >= frames && events >= 0, "a segment's counts hold a block per frame at least");
  return `\nframes ${frames} blocks ${blocks} events ${events}`;
}

/**
 * A log of format 1 (msgpack frames of hex strings) is not read: its frames would look like damage, and a torn
 * tail would be cut. Say how to rebuild it instead.
 */
export function refuseFormat1(dir: string): void {
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

export function listSegmentIndexes(dir: string): number[] {
  const indexes: number[] = [];
  for (const file of readdirSync(dir)) {
    const match = SEGMENT_FILE.exec(file);
    if (match !== null) indexes.push(Number(match[1]));
  }
  indexes.sort((a, b) => a - b);
  // Names are unique and their eight digits name one index each: sorted, each index is above the one before.
  for (let i = 1; i < indexes.length; i++) assert(indexes[i]! > indexes[i - 1]!, 'a segment index names one file');
  return indexes;
}

export function readManifest(dir: string): Manifest {
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

/** Replaces segments.json atomically: a reader sees the old file or the new one, never a mix. */
export function writeManifest(dir: string, sealed: SealedSegment[], truncatingAfter: number | null): void {
  // The log checked the names on open and seals segments in order; a truncate's block was checked by truncateAfter.
  assert(
    sealed.every((segment, index) => segment.name === segmentName(index)),
    'sealed segments are listed in order',
  );
  assert(
    truncatingAfter === null || (Number.isSafeInteger(truncatingAfter) && truncatingAfter >= -1),
    'a truncate is after a block or before the log',
  );
  const manifest: Manifest = { format: MANIFEST_FORMAT, sealed, truncatingAfter };
  const path = join(dir, MANIFEST_FILE);
  const temporaryPath = `${path}.tmp`;
  const fd = openSync(temporaryPath, 'w');
  try {
    writeFully(fd, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 0);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporaryPath, path);
  fsyncDirectory(dir);
}
