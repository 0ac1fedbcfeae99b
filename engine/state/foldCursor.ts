// How far the state is folded (the cursor, written in each commit) and what each folded block left behind (its
// record): the two things every reader of the state starts from.
import { assert, AssertionFailure } from '../assert.js';
import type { IdCounts } from '../log/idDictionary.js';
import { GENESIS_CHECKSUM } from './blockChecksum.js';
import type { StateStore } from './openStateStore.js';
import { decodeValue } from './stateCodec.js';

export interface FoldCursor {
  /** Last folded block, -1 before any. */
  block: number;
  checksum: string;
  events: number;
  blocks: number;
  /** Fills in the fills table: the next fill's number in chain order. */
  fills: number;
  /** The state's ids of each space (createStateIds): the next id of each. */
  ids: IdCounts;
}

export interface BlockRecord {
  block: number;
  ts: number;
  hash: string;
  checksum: string;
  events: number;
}

/** A block record as stored, keyed by the block (u32): time (u32), events (u32), hash and checksum (32 bytes each). */
const BLOCK_RECORD_BYTES = 72;

export function encodeBlockRecord(record: BlockRecord): Buffer {
  // Keyed by the block as a u32 (blockRecordKey): the log's blocks, from 0.
  assert(record.block >= 0, 'a block record is of a block');
  const bytes = Buffer.alloc(BLOCK_RECORD_BYTES);
  bytes.writeUInt32BE(record.ts, 0);
  bytes.writeUInt32BE(record.events, 4);
  if (bytes.write(record.hash.slice(2), 8, 32, 'hex') !== 32 || record.hash.length !== 66)
    throw new AssertionFailure(`block record: hash ${record.hash} is not 32 bytes of hex`);
  if (bytes.write(record.checksum, 40, 32, 'hex') !== 32 || record.checksum.length !== 64)
    throw new AssertionFailure(`block record: checksum ${record.checksum} is not 32 bytes of hex`);
  return bytes;
}

export function decodeBlockRecord(block: number, bytes: Buffer): BlockRecord {
  assert(bytes.length === BLOCK_RECORD_BYTES, 'a block record is 72 bytes');
  return {
    block,
    ts: bytes.readUInt32BE(0),
    hash: '0x' + bytes.toString('hex', 8, 40),
    checksum: bytes.toString('hex', 40, 72),
    events: bytes.readUInt32BE(4),
  };
}

export const CURSOR_KEY = 'cursor';
export const EMPTY_CURSOR: FoldCursor = {
  block: -1,
  checksum: GENESIS_CHECKSUM,
  events: 0,
  blocks: 0,
  fills: 0,
  ids: [0, 0, 0],
};

export function readFoldCursor(store: StateStore): FoldCursor {
  const bytes = store.dbs.meta.getBinary(CURSOR_KEY);
  return bytes ? decodeFoldCursor(bytes) : { ...EMPTY_CURSOR, ids: [0, 0, 0] };
}

/** The cursor as a commit wrote it (createFoldRunner), its fields checked against one another. */
export function decodeFoldCursor(bytes: Buffer): FoldCursor {
  const cursor = decodeValue<FoldCursor>(bytes);
  assert(Number.isSafeInteger(cursor.block) && cursor.block >= -1, "the cursor's block is a block, or -1");
  // Each commit folds blocks above the last, from -1: the blocks folded are that many distinct blocks up to it.
  assert(
    Number.isSafeInteger(cursor.blocks) && cursor.blocks >= 0 && cursor.blocks <= cursor.block + 1,
    'the cursor counts at most the blocks up to its own',
  );
  assert(cursor.block === -1 || cursor.blocks > 0, 'a cursor past a block has folded one');
  assert(cursor.checksum.length === GENESIS_CHECKSUM.length, "the cursor holds its last block's checksum");
  assert(
    Number.isSafeInteger(cursor.events) &&
      cursor.events >= 0 &&
      Number.isSafeInteger(cursor.fills) &&
      cursor.fills >= 0,
    'the cursor counts events and fills',
  );
  assert(
    cursor.ids.length === 3 && cursor.ids.every((count) => Number.isSafeInteger(count) && count >= 0),
    'the cursor holds the next id of each space',
  );
  return cursor;
}
