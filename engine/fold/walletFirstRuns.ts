// The hand-off's sort (collect, sort, load, as Erigon's ETL does): positions read from the working table in its
// token-first order are gathered into runs of bounded size, each sorted wallet first, kept in memory when one run
// holds them all and written to a file otherwise, then merged into one stream in the owner-first key order of
// `positions`. Memory is one run's entries, or one read buffer a run while merging.
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { assert } from '../assert.js';

/** A position on its way to `positions`: its ids and its stored bytes. */
export interface RunEntry {
  wallet: number;
  token: number;
  value: Buffer;
}

const ENTRY_HEAD = 12;
const FILE_BUFFER_BYTES = 1024 * 1024;

/** True when `a` comes before `b` in `positions`: wallet first, then token. */
const before = (a: RunEntry, b: RunEntry) => a.wallet < b.wallet || (a.wallet === b.wallet && a.token < b.token);

/** Entries gathered in token-first order: `sorted` answers them wallet first. */
export interface RunCollector {
  add(wallet: number, token: number, value: Buffer): void;
  /** The bytes the run holds: the caller ends it past its budget. */
  bytes(): number;
  count(): number;
  /** The run wallet first, and empties the collector. */
  sorted(): RunEntry[];
}

export function createRunCollector(): RunCollector {
  let entries: RunEntry[] = [];
  let bytes = 0;
  let lastToken = -1;
  let lastWallet = -1;
  return {
    add(wallet, token, value) {
      assert(
        token > lastToken || (token === lastToken && wallet > lastWallet),
        'hand-off: the working table is read in its key order',
      );
      lastToken = token;
      lastWallet = wallet;
      entries.push({ wallet, token, value });
      bytes += ENTRY_HEAD + value.length;
    },
    bytes: () => bytes,
    count: () => entries.length,
    sorted() {
      // A stable counting sort by wallet: the entries came token first, so each wallet's stay in token order.
      let low = Infinity;
      let high = -1;
      for (const { wallet } of entries) {
        if (wallet < low) low = wallet;
        if (wallet > high) high = wallet;
      }
      const starts = new Uint32Array(Math.max(0, high - low + 2));
      for (const { wallet } of entries) starts[wallet - low + 1]!++;
      for (let i = 1; i < starts.length; i++) starts[i]! += starts[i - 1]!;
      const out = new Array<RunEntry>(entries.length);
      for (const entry of entries) out[starts[entry.wallet - low]!++] = entry;
      entries = [];
      bytes = 0;
      lastToken = -1;
      lastWallet = -1;
      return out;
    },
  };
}

/** Writes a sorted run to `path`: per entry its wallet, token and value length (u32 each), then the value. */
export function writeRunFile(path: string, run: RunEntry[]): void {
  const fd = openSync(path, 'w');
  try {
    const buffer = Buffer.allocUnsafe(FILE_BUFFER_BYTES);
    let length = 0;
    const writeAll = (bytes: Uint8Array) => {
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    };
    const flush = () => {
      writeAll(buffer.subarray(0, length));
      length = 0;
    };
    for (const { wallet, token, value } of run) {
      if (length + ENTRY_HEAD + value.length > buffer.length) flush();
      length = buffer.writeUInt32BE(wallet, length);
      length = buffer.writeUInt32BE(token, length);
      length = buffer.writeUInt32BE(value.length, length);
      // A value longer than the buffer goes straight to the file.
      if (ENTRY_HEAD + value.length > buffer.length) {
        flush();
        writeAll(value);
      } else length += value.copy(buffer, length);
    }
    flush();
  } finally {
    closeSync(fd);
  }
}

/** Reads a run file back in order, one buffer at a time. */
function* readRunFile(path: string): Generator<RunEntry> {
  const fd = openSync(path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(FILE_BUFFER_BYTES);
    let start = 0;
    let end = 0;
    let eof = false;
    /** At least `size` bytes from `start` in the buffer, unless the file ends first. */
    const fill = (size: number) => {
      if (end - start >= size || eof) return;
      if (buffer.length < size) buffer = Buffer.concat([buffer.subarray(start, end), Buffer.allocUnsafe(size)]);
      else buffer.copy(buffer, 0, start, end);
      end -= start;
      start = 0;
      while (end - start < size && !eof) {
        const read = readSync(fd, buffer, end, buffer.length - end, null);
        if (read === 0) eof = true;
        end += read;
      }
    };
    for (;;) {
      fill(ENTRY_HEAD);
      if (start === end) return;
      assert(end - start >= ENTRY_HEAD, `hand-off: run file ${path} ends inside an entry`);
      const wallet = buffer.readUInt32BE(start);
      const token = buffer.readUInt32BE(start + 4);
      const size = buffer.readUInt32BE(start + 8);
      fill(ENTRY_HEAD + size);
      assert(end - start >= ENTRY_HEAD + size, `hand-off: run file ${path} ends inside an entry`);
      // A copy: the buffer is refilled under it.
      const value = Buffer.from(buffer.subarray(start + ENTRY_HEAD, start + ENTRY_HEAD + size));
      start += ENTRY_HEAD + size;
      yield { wallet, token, value };
    }
  } finally {
    closeSync(fd);
  }
}

/** The entries of every run file, merged wallet first (a binary heap of the runs' heads). */
export function* mergeRunFiles(paths: string[]): Generator<RunEntry> {
  const runs = paths.map((path) => readRunFile(path));
  const heads: Array<{ entry: RunEntry; run: Generator<RunEntry> }> = [];
  const siftDown = (at: number) => {
    for (;;) {
      const left = 2 * at + 1;
      if (left >= heads.length) return;
      const right = left + 1;
      const least = right < heads.length && before(heads[right]!.entry, heads[left]!.entry) ? right : left;
      if (!before(heads[least]!.entry, heads[at]!.entry)) return;
      [heads[at], heads[least]] = [heads[least]!, heads[at]!];
      at = least;
    }
  };
  for (const run of runs) {
    const first = run.next();
    if (!first.done) heads.push({ entry: first.value, run });
  }
  for (let at = Math.floor(heads.length / 2) - 1; at >= 0; at--) siftDown(at);
  while (heads.length > 0) {
    const top = heads[0]!;
    yield top.entry;
    const next = top.run.next();
    if (next.done) {
      heads[0] = heads[heads.length - 1]!;
      heads.pop();
    } else top.entry = next.value;
    siftDown(0);
  }
}
