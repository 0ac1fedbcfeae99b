// The per-block state checksum (engine/README.md, Pipeline): sha256 of the previous block's checksum and every state
// key the block touched with its final value, in key order. It depends on neither batch size nor worker count,
// so `tally verify` can refold with any settings and name the first block that differs.
import { createHash } from 'node:crypto';
import { assert } from '../assert.js';
import { STATE_DBS, type StateDbName } from './stateDbNames.js';
import { compareWrites, type StateWrite } from './stateWrite.js';

export const GENESIS_CHECKSUM = '0'.repeat(64);

/**
 * A write as the checksum hashes it (an entry): key length (u16), value length (u32), database name length (u8),
 * the name, the key, the value. Writers that make many writes (the wallet workers) write entries themselves, so
 * their writes reach the checksum and the commit as bytes, without an object each.
 */
export const ENTRY_VALUE_LENGTH_AT = 2;

/** Writes an entry's head (the value's length may be patched at ENTRY_VALUE_LENGTH_AT); answers where the key goes. */
export function writeEntryHead(
  target: Buffer,
  at: number,
  db: StateDbName,
  keyLength: number,
  valueLength: number,
): number {
  target.writeUInt16BE(keyLength, at);
  target.writeUInt32BE(valueLength, at + ENTRY_VALUE_LENGTH_AT);
  target[at + 6] = db.length;
  const written = target.write(db, at + 7, 'latin1');
  // A short write (no room left) would leave an entry whose name length names bytes that are not its name.
  assert(written === db.length, "an entry's head holds its database's whole name");
  return at + 7 + written;
}

/** Where the key of the entry at `at` starts. */
export function entryKeyAt(bytes: Buffer, at: number): number {
  // The names of STATE_DBS: an entry read where none starts would show a length no name has.
  assert(bytes[at + 6]! > 0 && bytes[at + 6]! <= MAX_DB_NAME, "an entry's head names a database");
  return at + 7 + bytes[at + 6]!;
}

/** Where the value of the entry at `at` starts. */
export function entryValueAt(bytes: Buffer, at: number): number {
  // An entry is one of the fold's writes, whose keys are never empty (LMDB takes none).
  assert(bytes.readUInt16BE(at) > 0, 'an entry has a key');
  return entryKeyAt(bytes, at) + bytes.readUInt16BE(at);
}

/** Where the entry at `at` ends. */
export function entryEnd(bytes: Buffer, at: number): number {
  const end = entryValueAt(bytes, at) + bytes.readUInt32BE(at + ENTRY_VALUE_LENGTH_AT);
  assert(end <= bytes.length, 'an entry ends inside its buffer');
  return end;
}

/**
 * One database's writes of a block as entries in key order, in parts (one per wallet partition) whose keys never
 * repeat across parts.
 */
export interface EntryRun {
  db: StateDbName;
  parts: Array<{ bytes: Buffer; start: number; end: number }>;
}

// The block's bytes are gathered here and hashed in one update: an update per write costs more in native
// calls than the hashing itself.
let scratch = Buffer.alloc(1 << 20);

/** The longest name of a state database (an entry's head holds its length in a byte). */
const MAX_DB_NAME = Math.max(...STATE_DBS.map((name) => name.length));

/** Compares the keys of two entries (byte order, then length). */
function compareEntryKeys(a: Buffer, aAt: number, b: Buffer, bAt: number): number {
  const aKey = entryKeyAt(a, aAt);
  const bKey = entryKeyAt(b, bAt);
  const order = a.compare(b, bKey, bKey + b.readUInt16BE(bAt), aKey, aKey + a.readUInt16BE(aAt));
  // A run's parts hold no key twice (each wallet partition writes its own wallets' keys).
  assert(order !== 0, "a run's parts never hold one key twice");
  return order;
}

/** Copies a run's parts into the scratch at `at`, merged in key order; answers the next offset. */
function writeRun(run: EntryRun, at: number): number {
  const parts = run.parts.filter((part) => part.end > part.start);
  if (parts.length === 1) {
    const copied = parts[0]!.bytes.copy(scratch, at, parts[0]!.start, parts[0]!.end);
    // blockChecksum sized the scratch for every part: a short copy would hash part of a run.
    assert(copied === parts[0]!.end - parts[0]!.start, 'a run is copied whole');
    return at + copied;
  }
  const next = parts.map((part) => part.start);
  for (;;) {
    let least = -1;
    for (let i = 0; i < parts.length; i++) {
      if (next[i]! >= parts[i]!.end) continue;
      if (least < 0 || compareEntryKeys(parts[i]!.bytes, next[i]!, parts[least]!.bytes, next[least]!) < 0) least = i;
    }
    if (least < 0) return at;
    const { bytes } = parts[least]!;
    const end = entryEnd(bytes, next[least]!);
    // A part is whole entries: its last ends at the part's end, never past it.
    assert(end <= parts[least]!.end, "an entry ends inside its run's part");
    at += bytes.copy(scratch, at, next[least]!, end);
    next[least] = end;
  }
}

/** `writes` (objects, sorted here) and `runs` (entries, of databases `writes` never name): the block's writes. */
export function blockChecksum(previous: string, block: number, writes: StateWrite[], runs: EntryRun[] = []): string {
  // The chain: GENESIS_CHECKSUM or the previous block's sha256, as hex.
  assert(previous.length === GENESIS_CHECKSUM.length, "a block's checksum chains a checksum");
  assert(Number.isSafeInteger(block) && block >= 0, 'a checksum is of a block');
  writes.sort(compareWrites);
  const ordered = [...runs].sort((a, b) => (a.db < b.db ? -1 : 1));
  let size = previous.length + 16;
  for (const write of writes) size += 7 + write.db.length + write.key.length + write.value.length;
  for (const { parts } of runs) for (const part of parts) size += part.end - part.start;
  if (size > scratch.length) scratch = Buffer.alloc(Math.max(size, scratch.length * 2));
  let at = scratch.write(previous, 0, 'latin1');
  at += scratch.write(String(block), at, 'latin1');
  const headEnd = at;
  let run = 0;
  let last: StateWrite | null = null;
  for (const write of writes) {
    // A block's writes come from maps by database and key (blockWrites.ts, createFillLists): each key once.
    assert(last === null || compareWrites(last, write) < 0, "a block's writes are sorted, each key once");
    last = write;
    // A run goes where its database falls among the writes' (database names, then keys).
    while (run < ordered.length && ordered[run]!.db < write.db) at = writeRun(ordered[run++]!, at);
    assert(run >= ordered.length || ordered[run]!.db !== write.db, 'the writes name no database of a run');
    at = writeEntryHead(scratch, at, write.db, write.key.length, write.value.length);
    at += scratch.write(write.key, at, 'latin1');
    at += write.value.copy(scratch, at);
  }
  while (run < ordered.length) at = writeRun(ordered[run++]!, at);
  // Every byte counted into `size` was hashed (16: room for the block's number).
  assert(at - headEnd === size - previous.length - 16, "a block's checksum hashes every write whole");
  return createHash('sha256').update(scratch.subarray(0, at)).digest('hex');
}
