// The hand-off's sort (collect, sort, load, as Erigon's ETL does): positions read from the working table in its
// token-first order are gathered into runs of bounded size, each sorted wallet first and written to a file, then
// merged into one stream in the owner-first key order of `positions`. Memory is one run's entries (packed), or one
// read buffer a run while merging.
import { closeSync, fstatSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { FileWindow } from '../log/fileWindow.js';
import { assert } from '../assert.js';

/** A position on its way to `positions`: its ids and its stored bytes. */
export interface RunEntry {
  wallet: number;
  token: number;
  value: Buffer;
}

const ENTRY_HEAD = 12;
const FILE_BUFFER_BYTES = 1024 * 1024;
const MIN_READ_BUFFER_BYTES = 64 * 1024;

/** True when `a` comes before `b` in `positions`: wallet first, then token. */
const before = (a: RunEntry, b: RunEntry) => a.wallet < b.wallet || (a.wallet === b.wallet && a.token < b.token);

/** Entries gathered in token-first order, packed (typed arrays and one buffer of values, no object an entry). */
export interface RunCollector {
  add(wallet: number, token: number, value: Uint8Array): void;
  /** The bytes the run holds: the caller ends it past its budget. */
  bytes(): number;
  count(): number;
  /** Writes the run wallet first to `path` (see writeRunFile), and empties the collector. */
  writeSorted(path: string): void;
}

export function createRunCollector(): RunCollector {
  let count = 0;
  let wallets = new Uint32Array(1024);
  let tokens = new Uint32Array(1024);
  /** Where each entry's value starts in `values`; entry i's ends where i + 1's starts. */
  let starts = new Uint32Array(1025);
  let values = Buffer.allocUnsafe(1 << 16);
  let length = 0;
  const grow = (array: Uint32Array, size: number) => {
    assert(size > array.length, 'hand-off: a collector grows');
    const grown = new Uint32Array(size);
    grown.set(array);
    return grown;
  };
  return {
    add(wallet, token, value) {
      assert(
        count === 0 || token > tokens[count - 1]! || (token === tokens[count - 1]! && wallet > wallets[count - 1]!),
        'hand-off: the working table is read in its key order',
      );
      if (count === wallets.length) {
        wallets = grow(wallets, count * 2);
        tokens = grow(tokens, count * 2);
        starts = grow(starts, count * 2 + 1);
      }
      if (length + value.length > values.length) {
        const grown = Buffer.allocUnsafe(Math.max(values.length * 2, length + value.length));
        values.copy(grown, 0, 0, length);
        values = grown;
      }
      wallets[count] = wallet;
      tokens[count] = token;
      starts[count] = length;
      values.set(value, length);
      length += value.length;
      count++;
      starts[count] = length;
    },
    bytes: () => length + ENTRY_HEAD * count,
    count: () => count,
    writeSorted(path) {
      // A stable counting sort by wallet: the entries came token first, so each wallet's stay in token order.
      let low = Infinity;
      let high = -1;
      for (let i = 0; i < count; i++) {
        if (wallets[i]! < low) low = wallets[i]!;
        if (wallets[i]! > high) high = wallets[i]!;
      }
      const next = new Uint32Array(Math.max(0, high - low + 2));
      for (let i = 0; i < count; i++) next[wallets[i]! - low + 1]!++;
      for (let i = 1; i < next.length; i++) next[i]! += next[i - 1]!;
      // The counts' running sum: every entry has a place, the last wallet's ending at the run's end.
      assert(count === 0 || next[next.length - 1] === count, 'hand-off: a run sorts every entry it holds');
      const order = new Uint32Array(count);
      for (let i = 0; i < count; i++) order[next[wallets[i]! - low]!++] = i;
      let previous = -1;
      writeRunFile(path, count, (at) => {
        const i = order[at]!;
        // Wallet first, and within a wallet token first as the entries came (the sort is stable).
        assert(
          previous < 0 ||
            wallets[i]! > wallets[previous]! ||
            (wallets[i] === wallets[previous] && tokens[i]! > tokens[previous]!),
          "hand-off: a run is in positions' key order",
        );
        previous = i;
        return { wallet: wallets[i]!, token: tokens[i]!, value: values.subarray(starts[i]!, starts[i + 1]!) };
      });
      count = 0;
      length = 0;
    },
  };
}

/**
 * Writes `count` entries, `entry(i)` in order, to `path`: per entry its wallet, token and value length (u32 each),
 * then the value.
 */
export function writeRunFile(path: string, count: number, entry: (at: number) => RunEntry): void {
  assert(Number.isSafeInteger(count) && count >= 0, 'hand-off: a run file holds a count of entries');
  const fd = openSync(path, 'w');
  try {
    const buffer = Buffer.allocUnsafe(FILE_BUFFER_BYTES);
    let length = 0;
    const writeAll = (bytes: Uint8Array) => {
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      assert(written === bytes.length, 'hand-off: a write puts its bytes whole');
    };
    const flush = () => {
      assert(length <= buffer.length, "hand-off: a run's buffer holds what it gathered");
      writeAll(buffer.subarray(0, length));
      length = 0;
    };
    for (let at = 0; at < count; at++) {
      const { wallet, token, value } = entry(at);
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
    // A run is the only copy of its positions once the working table is emptied (handOffPositions.ts).
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A run file read back in order, one buffer at a time: `wallet`, `token` and `value` are its head, the value a view
 * valid until the next `advance`. One object a run, not one an entry: the merge takes millions.
 */
class RunReader implements RunEntry {
  wallet = 0;
  token = 0;
  value: Buffer = Buffer.alloc(0);
  private readonly fd: number;
  private readonly fileBytes: number;
  private readonly window: FileWindow;
  private offset = 0;
  /** The refusal of a file cut inside an entry, made once. */
  private readonly cut: string;

  constructor(path: string, bufferBytes: number) {
    // mergeRunFiles gives each run 64 KiB to 1 MiB: an entry's head fits.
    assert(bufferBytes >= ENTRY_HEAD, "hand-off: a run's buffer holds an entry's head");
    this.cut = `hand-off: run file ${path} ends inside an entry`;
    this.fd = openSync(path, 'r');
    this.fileBytes = fstatSync(this.fd).size;
    this.window = new FileWindow(bufferBytes);
    this.window.attach(this.fd, this.fileBytes);
  }

  /** The next entry into the head; false at the file's end. */
  advance(): boolean {
    if (this.offset === this.fileBytes) return false;
    assert(this.fileBytes - this.offset >= ENTRY_HEAD, this.cut);
    const size = this.window.buffer.readUInt32BE(this.window.load(this.offset, ENTRY_HEAD) + 8);
    assert(this.fileBytes - this.offset >= ENTRY_HEAD + size, this.cut);
    const at = this.window.load(this.offset, ENTRY_HEAD + size);
    const bytes = this.window.buffer;
    this.wallet = bytes.readUInt32BE(at);
    this.token = bytes.readUInt32BE(at + 4);
    this.value = bytes.subarray(at + ENTRY_HEAD, at + ENTRY_HEAD + size);
    this.offset += ENTRY_HEAD + size;
    assert(this.offset <= this.fileBytes, 'hand-off: a run is read inside its file');
    return true;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * The entries of every run file, merged wallet first (a binary heap of the runs' heads), each run read through a
 * buffer of `bufferBytes` (64 KiB to 1 MiB). The entry yielded is its run's head: its fields and its value are valid
 * until the next entry is taken.
 */
export function* mergeRunFiles(paths: string[], bufferBytes = FILE_BUFFER_BYTES): Generator<RunEntry> {
  const each = Math.max(MIN_READ_BUFFER_BYTES, Math.min(FILE_BUFFER_BYTES, Math.floor(bufferBytes)));
  const runs: RunReader[] = [];
  try {
    for (const path of paths) runs.push(new RunReader(path, each));
    const heads = runs.filter((run) => run.advance());
    const siftDown = (at: number) => {
      assert(at >= 0 && at < Math.max(1, heads.length), 'hand-off: a sift starts inside the heap');
      for (;;) {
        const left = 2 * at + 1;
        if (left >= heads.length) return;
        const right = left + 1;
        const least = right < heads.length && before(heads[right]!, heads[left]!) ? right : left;
        if (!before(heads[least]!, heads[at]!)) return;
        [heads[at], heads[least]] = [heads[least]!, heads[at]!];
        at = least;
      }
    };
    for (let at = Math.floor(heads.length / 2) - 1; at >= 0; at--) siftDown(at);
    let wallet = -1;
    let token = -1;
    while (heads.length > 0) {
      const top = heads[0]!;
      // The heap's least head, each run sorted: the merge yields positions' keys in order, each once (a key is in one
      // run: the working table held it once).
      assert(top.wallet > wallet || (top.wallet === wallet && top.token > token), 'hand-off: a merge is in key order');
      wallet = top.wallet;
      token = top.token;
      yield top;
      if (!top.advance()) {
        heads[0] = heads[heads.length - 1]!;
        heads.pop();
      }
      siftDown(0);
    }
  } finally {
    // Stopped early (a failed load): each run's file is closed.
    for (const run of runs) run.close();
  }
}
