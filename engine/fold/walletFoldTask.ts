// The messages between the fold's main thread and a wallet-fold worker: the task, and the answer, which holds
// per block the positions the block touched and the market -> wallet index keys of positions stored for the
// first time, then the writes to put, in one buffer moved back (no copy, no msgpack, no object a write). Keys are
// as stateKeys builds them: 8 bytes of ids.
import type { IdCounts } from '../log/idDictionary.js';
import type { Position } from '../reducers/position.js';
import { POSITION_MAX_BYTES, writePosition } from '../state/stateCodec.js';
import { ENTRY_VALUE_LENGTH_AT, writeEntryHead } from '../state/blockChecksum.js';
import { assert } from '../assert.js';

export interface WalletFoldTask {
  stateDir: string;
  /** The partition's position events in chain order, as records (positionRecords), transferred. */
  records: ArrayBuffer;
  /** How many f64s of `records` they fill. */
  recordLength: number;
  /** Transfer basis slots: Int32 ready flags then Float64 values (see transferSlots). */
  slots: SharedArrayBuffer;
  slotCount: number;
  /**
   * The last block the state holds. The task may run while earlier tasks' blocks are still being written: the
   * worker keeps what those changed, and reads the rest from the state.
   */
  committedBlock: number;
  /** Positions to keep between tasks; past it, the committed closed ones go first. */
  cacheLimit: number;
  /** Changes when the main thread abandons a batch: the worker's cache may then hold positions never committed. */
  epoch: number;
  /**
   * The state's id counts as committed through `committedBlock`: a position or index key naming a later id is not
   * in the state yet, so the worker does not look for it (a lookup that misses walks the B-tree, and new wallets
   * miss every time).
   */
  storedIds: IdCounts;
  /**
   * The state is backfilling (backfillRecord.ts): positions folded since it began are in the token-first working
   * table, which the commit writes in token-first order.
   */
  backfill: boolean;
}

/** The worker's answer (see createWalletFoldResult), a view of the buffer moved back. */
export type WalletFoldResult = Uint8Array;

const KEY_BYTES = 8;
/** Marks the end of the block entries: no block has this number. */
const FINAL_MARK = 0xffff_ffff;

export interface WalletFoldResultWriter {
  /** Starts a block's entry: its positions (keys in order), then its new index keys (in order), then endBlock. */
  startBlock(block: number): void;
  /** Answers where the position's write is, for `finish`. */
  position(key: string, position: Position): number;
  indexKey(key: string): void;
  /** Ends the block's entry; one with no position is dropped. */
  endBlock(): void;
  /** The writes the commit puts: the last of each position written, in the order the commit puts them. */
  finish(lastWrites: number[]): void;
  take(): WalletFoldResult;
}

/**
 * Block entries, then the final table. A block entry: block (u32), the byte lengths of its positions and of its
 * index keys (u32 each), then its position writes and its index key writes, each as the checksum hashes a write
 * (blockChecksum.ts: the commit hashes and puts these bytes as they are). The final table: FINAL_MARK, a count,
 * and the offset of each write to put (u32 each).
 */
export function createWalletFoldResult(): WalletFoldResultWriter {
  let bytes = Buffer.allocUnsafeSlow(1 << 16);
  let length = 0;
  let entryAt = -1;
  let indexAt = -1;
  /** The last block entry started: the worker folds its events in chain order. */
  let lastBlock = -1;
  const reserve = (size: number) => {
    if (length + size <= bytes.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(bytes.length * 2, length + size));
    bytes.copy(grown, 0, 0, length);
    bytes = grown;
    assert(length + size <= bytes.length, 'wallet fold result: a reserve makes room');
  };
  const POSITION_ENTRY = 7 + 'positions'.length + KEY_BYTES + POSITION_MAX_BYTES;
  const INDEX_ENTRY = 7 + 'marketWallets'.length + KEY_BYTES;
  return {
    startBlock(block) {
      // A u32 below FINAL_MARK, above the last: the commit finds each block's entry by its number, once.
      assert(
        Number.isSafeInteger(block) && block > lastBlock && block < FINAL_MARK,
        'wallet fold result: blocks go up',
      );
      lastBlock = block;
      reserve(12);
      entryAt = length;
      indexAt = -1;
      bytes.writeUInt32BE(block, length);
      length += 12;
    },
    position(key, position) {
      // A block's positions come before its index keys, each a key of two u32 ids (positionKey).
      assert(entryAt >= 0 && indexAt < 0, "wallet fold result: a position is written in a block's entry");
      assert(key.length === KEY_BYTES, "wallet fold result: a position's key is 8 bytes");
      reserve(POSITION_ENTRY);
      const at = length;
      const keyAt = writeEntryHead(bytes, at, 'positions', KEY_BYTES, 0);
      bytes.write(key, keyAt, KEY_BYTES, 'latin1');
      length = writePosition(position, bytes, keyAt + KEY_BYTES);
      bytes.writeUInt32BE(length - keyAt - KEY_BYTES, at + ENTRY_VALUE_LENGTH_AT);
      // writePosition writes at most POSITION_MAX_BYTES: the entry stays inside what was reserved for it.
      assert(length - at <= POSITION_ENTRY, 'wallet fold result: a position fits its reserve');
      return at;
    },
    indexKey(key) {
      assert(
        entryAt >= 0 && key.length === KEY_BYTES,
        "wallet fold result: an index key is written in a block's entry",
      );
      if (indexAt < 0) indexAt = length;
      reserve(INDEX_ENTRY);
      const keyAt = writeEntryHead(bytes, length, 'marketWallets', KEY_BYTES, 0);
      length = keyAt + bytes.write(key, keyAt, KEY_BYTES, 'latin1');
    },
    endBlock() {
      const positionsEnd = indexAt < 0 ? length : indexAt;
      assert(
        entryAt >= 0 && positionsEnd >= entryAt + 12 && length >= positionsEnd,
        'wallet fold result: an entry ends',
      );
      if (positionsEnd === entryAt + 12) length = entryAt;
      else {
        bytes.writeUInt32BE(positionsEnd - entryAt - 12, entryAt + 4);
        bytes.writeUInt32BE(length - positionsEnd, entryAt + 8);
      }
    },
    finish(lastWrites) {
      reserve(8 + 4 * lastWrites.length);
      const entriesEnd = length;
      length = bytes.writeUInt32BE(FINAL_MARK, length);
      length = bytes.writeUInt32BE(lastWrites.length, length);
      for (const at of lastWrites) {
        // Each is where `position` wrote a position, among the block entries before the final table.
        assert(at >= 0 && at < entriesEnd, 'wallet fold result: a write to put is one of the entries');
        length = bytes.writeUInt32BE(at, length);
      }
    },
    take() {
      assert(length <= bytes.length, 'wallet fold result: an answer lies inside its buffer');
      const taken = new Uint8Array(bytes.buffer, bytes.byteOffset, length);
      // Moved to the main thread: the next starts at this answer's size (see createPositionRecordWriter's take).
      bytes = Buffer.allocUnsafeSlow(Math.max(1 << 16, length));
      length = 0;
      lastBlock = -1;
      return taken;
    },
  };
}

/** A block's writes in an answer: its positions' and its index keys' entries, byte ranges of `bytes`. */
export interface AnswerBlock {
  positions: { start: number; end: number };
  indexKeys: { start: number; end: number };
}

export interface WalletFoldAnswer {
  bytes: Buffer;
  blocks: Map<number, AnswerBlock>;
  /** The offsets of the entries to put: each position's last write, in key order. */
  lastWrites: number[];
}

export function readWalletFoldResult(result: WalletFoldResult): WalletFoldAnswer {
  const bytes = Buffer.from(result.buffer, result.byteOffset, result.byteLength);
  const blocks = new Map<number, AnswerBlock>();
  let at = 0;
  for (;;) {
    assert(at + 8 <= bytes.length, 'wallet fold result: no entry runs past the end');
    const block = bytes.readUInt32BE(at);
    if (block === FINAL_MARK) break;
    const positionsEnd = at + 12 + bytes.readUInt32BE(at + 4);
    const end = positionsEnd + bytes.readUInt32BE(at + 8);
    assert(end <= bytes.length, 'wallet fold result: no entry runs past the end');
    // startBlock numbers each entry above the last, and endBlock drops an entry with no position.
    assert(!blocks.has(block) && positionsEnd > at + 12, 'wallet fold result: a block has one entry, with positions');
    blocks.set(block, { positions: { start: at + 12, end: positionsEnd }, indexKeys: { start: positionsEnd, end } });
    at = end;
  }
  const count = bytes.readUInt32BE(at + 4);
  at += 8;
  assert(at + 4 * count === bytes.length, 'wallet fold result: no entry runs past the end');
  const lastWrites: number[] = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    lastWrites[i] = bytes.readUInt32BE(at + 4 * i);
    assert(lastWrites[i]! < at - 8, "wallet fold result: a write to put is one of the answer's entries");
  }
  return { bytes, blocks, lastWrites };
}
