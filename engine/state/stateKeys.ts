// LMDB keys, whose byte order is the order the routes read in: a wallet's positions under its id, a market's
// wallets under its condition's id, fills by block and log index so ranges run in chain order.
import { assert } from '../assert.js';
import { ID_BYTES, ID_SPACE } from '../log/idDictionary.js';

const BLOCK_WIDTH = 10;

export function blockKey(block: number): string {
  return block.toString().padStart(BLOCK_WIDTH, '0');
}

/** A position: its wallet's id, then its token's, so a wallet's positions are one range. */
export function positionKey(walletId: number, tokenId: number): string {
  const key = u32Key(walletId) + u32Key(tokenId);
  // The workers hash and put it as the 8 bytes of a position entry (walletFoldTask.ts KEY_BYTES).
  assert(key.length === 8, 'a position key is 8 characters');
  return key;
}

/** positionKey's bytes written into `target` (8 bytes): a load of millions reuses one buffer. */
export function writePositionKey(target: Buffer, walletId: number, tokenId: number): Buffer {
  // A longer buffer would put a key with trailing bytes of the last one.
  assert(target.length === 8, 'a position key is written into 8 bytes');
  target.writeUInt32BE(walletId, 0);
  target.writeUInt32BE(tokenId, 4);
  return target;
}

/**
 * A position in backfill's working table (backfillRecord.ts): its token's id first. Tokens are numbered as the
 * venue first names them, so the positions a stretch of history trades lie together at the table's end, where a
 * wallet-first key spreads them over the whole table.
 */
export function backfillPositionKey(tokenId: number, walletId: number): string {
  const key = u32Key(tokenId) + u32Key(walletId);
  assert(key.length === 8, 'a working-table position key is 8 characters');
  return key;
}

/** A wallet that ever held a position in a market: the condition's id, then the wallet's. */
export function marketWalletKey(conditionId: number, walletId: number): string {
  const key = u32Key(conditionId) + u32Key(walletId);
  assert(key.length === 8, 'a market wallet key is 8 characters');
  return key;
}

/**
 * A u32 as 4 key characters, big-endian. The binary keys of openStateStore's BINARY_KEY_DBS travel through the
 * fold as latin1 strings (one character a byte, so string order is byte order and the checksum hashes the bytes)
 * and become bytes when they are put (storedKey).
 */
export function u32Key(value: number): string {
  // Ids and blocks are u32 in the layout: anything else would wrap silently to another key.
  assert(value >>> 0 === value, 'a u32 key holds a u32');
  return String.fromCharCode(value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255);
}

/** A block's record: the block, so the records run in block order. */
export function blockRecordKey(block: number): string {
  // The reader checks a block asked for before it makes a key; the fold's blocks are the log's, from 0.
  assert(block >= 0, 'a block record key is of a block');
  return u32Key(block);
}

/** A block's fills in the fills table: the block, so the table runs in chain order. */
export function blockFillsKey(block: number): string {
  // A folded block (firstBlockFrom's answer, the fold's own): never the -1 of an empty cursor.
  assert(block >= 0, 'a block fills key is of a block');
  return u32Key(block);
}

/** Whose fill list: a wallet by its id. */
export function walletListOwner(walletId: number): string {
  const owner = u32Key(walletId);
  // 4 characters: fillListKey tells a wallet's owner from a market's (5) by its length.
  assert(owner.length === 4, 'a wallet list owner is 4 characters');
  return owner;
}

/** Whose fill list: a market by its id space (a condition, or a token no condition explains) and id. */
export function marketListOwner(space: number, id: number): string {
  // The fold stores a fill under its condition, or under its token when no condition explains it.
  assert(space === ID_SPACE.condition || space === ID_SPACE.token, "a market list's owner is a condition or a token");
  return String.fromCharCode(space) + u32Key(id);
}

/**
 * One bucket of a wallet's or a market's fill list (see createFillLists): the bucket first, so that a commit's
 * lists, all of the venue's current bucket, lie together at the table's end.
 */
export function fillListKey(owner: string, bucket: number): string {
  assert(owner.length === 4 || owner.length === 5, "a fill list's owner is a wallet's or a market's");
  return u32Key(bucket) + owner;
}

/** Which buckets of an epoch (FILL_EPOCH_BUCKETS buckets) an owner has a list in: the epoch, then the owner. */
export function fillEpochKey(owner: string, epoch: number): string {
  assert(owner.length === 4 || owner.length === 5, "an epoch bitmap's owner is a wallet's or a market's");
  return u32Key(epoch) + owner;
}

/** An id's definition: its space and number. */
export function idKey(space: number, id: number): string {
  assert(space >= 0 && space < ID_BYTES.length, 'an id key is of an id space');
  return String.fromCharCode(space) + u32Key(id);
}

/** An id by its value: its space and bytes. */
export function idValueKey(space: number, bytes: Buffer): string {
  // idTextBytes of a text checked by the caller: a shorter value would name another id's prefix.
  assert(bytes.length === ID_BYTES[space], "an id value key holds its space's width");
  return String.fromCharCode(space) + bytes.toString('latin1');
}

/** A round's report, in the feed answers' table: asset symbols never start with "report". */
export function roundReportKey(questionId: string): string {
  // A decoded event's question id, or roundQuestionId's keccak256: 0x and 32 bytes of hex either way.
  assert(questionId.length === 66, 'a round report is keyed by its 32-byte question id');
  return 'report:' + questionId;
}

/** The count of Protocol V2 logs with an unknown topic0, in the feed answers' table (no asset starts so). */
export function unknownTopicKey(topic0: string): string {
  // The decoder's text of a log's first topic, a 32-byte word (the sources check every topic is one).
  assert(topic0.length === 66, 'an unknown topic is a 32-byte word');
  return 'unknownTopic:' + topic0;
}
export const UNKNOWN_TOPIC_PREFIX = 'unknownTopic:';

/** A feed answer by asset and update time. */
export function feedAnswerKey(asset: string, updatedAt: number, roundId: string): string {
  return asset + ':' + blockKey(updatedAt) + ':' + roundId;
}
