// The demo's capture writer: turns the simulator's ChainEvents into capture lines (replay/README.md, Inputs) with
// chain positions. Invariants: blocks only ever move forward; within a block, transactions and log indexes only
// increase; only blocks that get a log appear. Memory stays flat whatever the size of the capture: each line
// goes straight into one of a few 8 MB buffers; a full buffer is written asynchronously at its file position
// (pwrite) while generation goes on in the next one. When every buffer is in flight the caller awaits
// `drain()`, the only place generation waits for the disk. Into a pipe (a FIFO the fold reads as it is written, for a
// capture larger than the disk: bench:fold-stream) the buffers are written in turn, each whole, from where the last
// ended.
import { AssertionFailure } from '../../engine/assert.js';
import { close, closeSync, fstatSync, openSync, write } from 'node:fs';
import { KIND, type ChainEvent } from '../../engine/chain/chainEvent.js';
import {
  CAPTURE_LINE_END,
  captureLineBlockPart,
  captureLineHead,
  captureLineTxPart,
  encodeLog,
} from '../../replay/source/encodeLog.js';
import type { EncodedLog, LogPosition } from '../../replay/source/encodedLog.js';
import { HexIds, type Prng } from './prng.js';

/** Called for every log written (tests use it to compare decoded lines with what was encoded). */
export type OnDemoLog = (event: ChainEvent | null, address: string, log: EncodedLog, at: LogPosition) => void;

const BUFFER_BYTES = 1 << 23;
const MAX_BUFFERS = 4;
/** Longer lines than this are impossible: the biggest log (a 256-id batch transfer) is ~33 kB. */
const MAX_LINE_BYTES = 1 << 16;

export class DemoCapture {
  /** Logs written per event kind (index = KIND code); logs of other events are counted in `otherLogs`. */
  readonly kindCounts = new Array<number>(Math.max(...Object.values(KIND)) + 1).fill(0);
  otherLogs = 0;
  lines = 0;
  bytes = 0;
  firstBlock = -1;
  lastBlock = -1;
  firstTs = 0;
  lastTs = 0;

  private readonly fd: number;
  private buffer: Buffer;
  private offset = 0;
  private position = 0;
  private readonly free: Buffer[] = [];
  private inFlight = 0;
  /** A pipe: no file positions, so one write at a time, in order (`queued` waits its turn). */
  private readonly piped: boolean;
  private readonly queued: Array<{ buffer: Buffer; length: number }> = [];
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private block = -1;
  private blockTs = 0;
  private blockHash = '';
  private blockPart = '';
  private blockOpen = false;
  private readonly blockHashes: HexIds;
  private readonly txHashes: HexIds;
  private txIndex = 0;
  private txHash = '';
  private txPart = '';
  private logIndex = 0;

  constructor(
    path: string,
    private readonly layout: Prng,
    private readonly onLog: OnDemoLog | undefined,
  ) {
    this.blockHashes = new HexIds(layout.fork(1));
    this.txHashes = new HexIds(layout.fork(2));
    this.fd = openSync(path, 'w');
    this.piped = fstatSync(this.fd).isFIFO();
    this.buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  }

  /** True when every buffer is being written: the caller should await drain() before going on. */
  get saturated(): boolean {
    return this.inFlight >= MAX_BUFFERS - 1;
  }

  /** Resolves once a buffer write finished (at once if none is in flight). */
  drain(): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  /** Starts a block. Nothing is written for it until its first log. */
  beginBlock(block: number, ts: number): void {
    if (block <= this.block) throw new AssertionFailure(`demo capture: block ${block} after block ${this.block}`);
    this.block = block;
    this.blockTs = ts;
    this.blockHash = '0x' + this.blockHashes.of(block);
    this.blockPart = '';
    this.blockOpen = true;
    // Other contracts' logs and transactions come first in a real block; leave room for them.
    this.txIndex = this.layout.int(4) - 1;
    this.logIndex = this.layout.int(6);
    this.txHash = '';
  }

  /** Starts a transaction in the current block (other senders' transactions may sit in between). */
  beginTx(): void {
    if (!this.blockOpen) throw new AssertionFailure('demo capture: transaction outside a block');
    this.txIndex += 1 + (this.layout.chance(0.3) ? this.layout.int(3) : 0);
    this.txHash = '0x' + this.txHashes.next();
    if (this.blockPart === '') this.blockPart = captureLineBlockPart(this.block, this.blockHash, this.blockTs);
    this.txPart = captureLineTxPart(this.blockPart, this.txHash, this.txIndex);
  }

  /** Leaves room for `count` logs of contracts the capture does not hold (USDC transfers and the like). */
  skipLogs(count: number): void {
    this.logIndex += count;
  }

  /** Writes one venue event emitted by `address` at the next log index of the current transaction. */
  log(event: ChainEvent, address: string): void {
    if (this.txHash === '') throw new AssertionFailure('demo capture: log outside a transaction');
    event.logIndex = this.logIndex;
    event.txIndex = this.txIndex;
    event.tx = this.txHash;
    const encoded = encodeLog(event, address);
    this.kindCounts[event.kind]!++;
    this.write(address, encoded, event);
  }

  /** Writes a log that is not a venue event tally uses (an ERC-20 transfer of an LP token, say). */
  other(address: string, topics: string[], data: string): void {
    if (this.txHash === '') throw new AssertionFailure('demo capture: log outside a transaction');
    this.otherLogs++;
    this.write(address, { topics, data }, null);
  }

  /** Writes what is buffered, waits for every write and closes the file. */
  async close(): Promise<void> {
    this.flush();
    while (this.inFlight > 0) await this.drain();
    if (this.failure !== null) throw this.failure;
    await new Promise<void>((resolve, reject) => close(this.fd, (error) => (error ? reject(error) : resolve())));
  }

  /** Closes the file without waiting (after a failure). */
  abort(): void {
    closeSync(this.fd);
  }

  private write(address: string, encoded: EncodedLog, event: ChainEvent | null): void {
    if (this.onLog !== undefined) {
      this.onLog(event, address, encoded, {
        blockNumber: this.block,
        blockHash: this.blockHash,
        blockTs: this.blockTs,
        txHash: this.txHash,
        txIndex: this.txIndex,
        logIndex: this.logIndex,
      });
    }
    const line =
      captureLineHead(address, encoded) + this.txPart + '0x' + this.logIndex.toString(16) + CAPTURE_LINE_END + '\n';
    this.logIndex++;
    this.lines++;
    if (this.firstBlock < 0) {
      this.firstBlock = this.block;
      this.firstTs = this.blockTs;
    }
    this.lastBlock = this.block;
    this.lastTs = this.blockTs;
    if (this.offset + MAX_LINE_BYTES > BUFFER_BYTES) this.flush();
    this.offset += this.buffer.write(line, this.offset, 'latin1');
  }

  /** Starts writing the current buffer at its file position (or queues it for a pipe) and moves on to a free one. */
  private flush(): void {
    if (this.failure !== null) throw this.failure;
    if (this.offset === 0) return;
    const buffer = this.buffer;
    const length = this.offset;
    const position = this.position;
    this.position += length;
    this.bytes += length;
    this.inFlight++;
    if (this.piped) {
      this.queued.push({ buffer, length });
      if (this.queued.length === 1) this.pipeNext(0);
    } else {
      write(this.fd, buffer, 0, length, position, (error, written) => {
        this.settle(
          buffer,
          error ?? (written === length ? null : new Error(`demo capture: short write at byte ${position}`)),
        );
      });
    }
    this.buffer = this.free.pop() ?? Buffer.allocUnsafe(BUFFER_BYTES);
    this.offset = 0;
  }

  /** Writes the first queued buffer into the pipe from `from`, to its end (a pipe may take part of a write). */
  private pipeNext(from: number): void {
    const { buffer, length } = this.queued[0]!;
    write(this.fd, buffer, from, length - from, null, (error, written) => {
      if (error === null && from + written < length) return this.pipeNext(from + written);
      this.queued.shift();
      this.settle(buffer, error);
      if (error === null && this.queued.length > 0) this.pipeNext(0);
    });
  }

  /** A buffer's write ended: the buffer is free again, and generation waiting in drain() goes on. */
  private settle(buffer: Buffer, error: Error | null): void {
    if (error !== null) this.failure = error;
    this.inFlight--;
    this.free.push(buffer);
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
