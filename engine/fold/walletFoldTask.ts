// The messages between the fold's main thread and a wallet-fold worker: the task, and the answer, which holds
// per block the positions the block touched and the market -> wallet index keys of positions stored for the
// first time, in one buffer moved back (no copy, no msgpack). Keys are as stateKeys builds them: 8 bytes of ids.
import type { IdCounts } from '../log/idDictionary.js';
import type { Position } from '../reducers/position.js';
import { POSITION_MAX_BYTES, writePosition } from '../state/stateCodec.js';
import type { StateWrite } from '../state/stateWrite.js';
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
}

/** The worker's answer: block entries (see createWalletFoldResult), a view of the buffer moved back. */
export type WalletFoldResult = Uint8Array;

const KEY_BYTES = 8;
const EMPTY = Buffer.alloc(0);

export interface WalletFoldResultWriter {
  /** Starts a block's entry: its positions (keys in order), then its new index keys, then endBlock. */
  startBlock(block: number): void;
  position(key: string, position: Position): void;
  indexKey(key: string): void;
  /** Ends the block's entry; one with no position is dropped. */
  endBlock(): void;
  take(): WalletFoldResult;
}

/**
 * A block entry: block (u32), position count (u32), index key count (u32); each position's key (8 bytes),
 * value length (u16) and value; each index key (8 bytes). Values are written in place (stateCodec.writePosition).
 */
export function createWalletFoldResult(): WalletFoldResultWriter {
  let bytes = Buffer.allocUnsafeSlow(1 << 16);
  let length = 0;
  let entryAt = -1;
  let positions = 0;
  let indexKeys = 0;
  const reserve = (size: number) => {
    if (length + size <= bytes.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(bytes.length * 2, length + size));
    bytes.copy(grown, 0, 0, length);
    bytes = grown;
  };
  return {
    startBlock(block) {
      reserve(12);
      entryAt = length;
      bytes.writeUInt32BE(block, length);
      length += 12;
      positions = 0;
      indexKeys = 0;
    },
    position(key, position) {
      reserve(KEY_BYTES + 2 + POSITION_MAX_BYTES);
      length += bytes.write(key, length, KEY_BYTES, 'latin1');
      const end = writePosition(position, bytes, length + 2);
      bytes.writeUInt16BE(end - length - 2, length);
      length = end;
      positions++;
    },
    indexKey(key) {
      reserve(KEY_BYTES);
      length += bytes.write(key, length, KEY_BYTES, 'latin1');
      indexKeys++;
    },
    endBlock() {
      if (positions === 0) length = entryAt;
      else {
        bytes.writeUInt32BE(positions, entryAt + 4);
        bytes.writeUInt32BE(indexKeys, entryAt + 8);
      }
    },
    take() {
      const taken = new Uint8Array(bytes.buffer, bytes.byteOffset, length);
      // Moved to the main thread: the next starts at this answer's size (see createPositionRecordWriter's take).
      bytes = Buffer.allocUnsafeSlow(Math.max(1 << 16, length));
      length = 0;
      return taken;
    },
  };
}

/** Each block's writes, in the order the worker wrote them. Values are views of the buffer, not copies. */
export function* readWalletFoldResult(result: WalletFoldResult): Generator<{ block: number; writes: StateWrite[] }> {
  const bytes = Buffer.from(result.buffer, result.byteOffset, result.byteLength);
  let at = 0;
  while (at < bytes.length) {
    const block = bytes.readUInt32BE(at);
    const positions = bytes.readUInt32BE(at + 4);
    const indexKeys = bytes.readUInt32BE(at + 8);
    at += 12;
    const writes: StateWrite[] = [];
    for (let i = 0; i < positions; i++) {
      const key = bytes.toString('latin1', at, at + KEY_BYTES);
      const size = bytes.readUInt16BE(at + KEY_BYTES);
      at += KEY_BYTES + 2;
      writes.push({ db: 'positions', key, value: bytes.subarray(at, at + size) });
      at += size;
    }
    for (let i = 0; i < indexKeys; i++, at += KEY_BYTES)
      writes.push({ db: 'marketWallets', key: bytes.toString('latin1', at, at + KEY_BYTES), value: EMPTY });
    yield { block, writes };
  }
  assert(at === bytes.length, 'wallet fold result: no entry runs past the end');
}
