// How far the state is folded (the cursor, written in each commit) and what each folded block left behind (its
// record): the two things every reader of the state starts from.
import { AssertionFailure } from '../assert.js';
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
  return bytes ? decodeValue<FoldCursor>(bytes) : { ...EMPTY_CURSOR, ids: [0, 0, 0] };
}
