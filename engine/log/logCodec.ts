// The log's payload codec: a run of blocks <-> fixed-width binary records with numeric ids.
//
// Layout, little-endian:
//   payload = defs, u32 blockCount, block...
//   defs    = for each id space (address, token, condition): u32 base (the log's ids before this payload) and
//             u32 count; then each space's `count` new values (20, 32, 32 bytes): the ids this payload names
//             first, in the order it names them.
//   block   = f64 number, f64 ts, 32 bytes hash, u32 txCount, txCount x 32 bytes tx hash (first-seen order),
//             u32 eventCount, event...
//   event   = u8 kind, u32 logIndex, u32 txIndex, u32 tx (its place in the block's tx list), then the kind's
//             EVENT_SCHEMA fields in order: address/token/condition as u32 ids, bytes32/word as 32 bytes,
//             number as f64 (safe integers), bool and exchange as u8, numbers as u32 n + n f64, tokens and
//             conditions and addresses as u32 n + n u32 ids, bytes as u32 n + n bytes.
// Ids are numbered field by field in log order, so a decoder checks that every id it has not seen yet is
// exactly the next one: the numbering is a pure function of the log, whatever the frame boundaries.
import { EVENT_SCHEMA, type BlockEvents, type ChainEvent, type FieldType } from '../chain/chainEvent.js';
import { ID_BYTES, ID_SPACE, ID_SPACES, type IdCounts, type IdDictionary, type IdSpace } from './idDictionary.js';
import { LogCodecError } from './logCodecError.js';
import { assert } from '../assert.js';

export { LogCodecError };

const HASH_BYTES = 32;
/** The minimum bytes of a payload: the definitions header that readDefinitionsHeader reads. */
export const DEFINITIONS_HEADER_BYTES = ID_SPACES.length * 8;

/** Grows as it is written; `bytes()` is a view of what was written. */
class ByteWriter {
  buffer: Buffer;
  at = 0;
  /** For error messages. */
  block = 0;
  logIndex = 0;
  kind = 0;

  constructor(initialBytes: number) {
    assert(Number.isSafeInteger(initialBytes) && initialBytes > 0, 'a byte writer starts with room');
    this.buffer = Buffer.allocUnsafe(initialBytes);
  }

  ensure(bytes: number): void {
    // Every length asked for was checked or counted by the caller first (a string's, a list's).
    assert(bytes >= 0, 'a write takes a non-negative number of bytes');
    if (this.at + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }

  u8(value: number): void {
    // Kinds come through ENCODE_BY_KIND, flags are 0 or 1, small() checked its value.
    assert(value >= 0 && value <= 255, 'a u8 is a byte');
    this.ensure(1);
    this.buffer[this.at++] = value;
  }

  u32(value: number, name: string): void {
    if (value >>> 0 !== value) this.fail(`a ${name} that is not a u32: ${String(value)}`);
    this.ensure(4);
    this.buffer.writeUInt32LE(value, this.at);
    this.at += 4;
  }

  f64(value: unknown, name: string): void {
    if (typeof value !== 'number') this.fail(value === undefined ? `no ${name}` : `a ${name} that is not a number`);
    this.ensure(8);
    this.buffer.writeDoubleLE(value as number, this.at);
    this.at += 8;
  }

  hex32(value: unknown, prefixLength: number, name: string): void {
    assert(prefixLength === 0 || prefixLength === 2, 'a 32-byte field has no prefix or 0x');
    if (typeof value !== 'string' || value.length !== prefixLength + 64)
      this.fail(value === undefined ? `no ${name}` : `a malformed ${name}`);
    this.ensure(HASH_BYTES);
    if (this.buffer.write((value as string).slice(prefixLength), this.at, HASH_BYTES, 'hex') !== HASH_BYTES)
      this.fail(`a malformed ${name}`);
    this.at += HASH_BYTES;
  }

  id(dictionary: IdDictionary, space: IdSpace, value: unknown, name: string): void {
    assert(ID_BYTES[space] !== undefined, 'an id is of one of the id spaces');
    if (value === undefined) this.fail(`no ${name}`);
    this.u32(dictionary.intern(space, value as string), name);
  }

  ids(dictionary: IdDictionary, space: IdSpace, values: unknown, name: string): void {
    if (!Array.isArray(values)) this.fail(values === undefined ? `no ${name}` : `a ${name} that is not an array`);
    const list = values as unknown[];
    const start = this.at;
    this.u32(list.length, name);
    for (const value of list) this.id(dictionary, space, value, name);
    assert(this.at === start + 4 + list.length * 4, 'an id list is its count and a u32 per id');
  }

  f64s(values: unknown, name: string): void {
    if (!Array.isArray(values)) this.fail(values === undefined ? `no ${name}` : `a ${name} that is not an array`);
    const list = values as unknown[];
    const start = this.at;
    this.u32(list.length, name);
    for (const value of list) this.f64(value, name);
    assert(this.at === start + 4 + list.length * 8, 'a number list is its count and an f64 per number');
  }

  bytes(value: unknown, name: string): void {
    if (typeof value !== 'string' || !value.startsWith('0x') || value.length % 2 !== 0)
      this.fail(value === undefined ? `no ${name}` : `a malformed ${name}`);
    const length = ((value as string).length - 2) / 2;
    this.u32(length, name);
    this.ensure(length);
    if (this.buffer.write((value as string).slice(2), this.at, length, 'hex') !== length)
      this.fail(`a malformed ${name}`);
    this.at += length;
    assert(this.at <= this.buffer.length, 'a bytes field lies inside the writer');
  }

  flag(value: unknown, name: string): void {
    if (typeof value !== 'boolean') this.fail(value === undefined ? `no ${name}` : `a ${name} that is not a boolean`);
    this.u8(value ? 1 : 0);
  }

  small(value: unknown, name: string): void {
    if (typeof value !== 'number' || !(value >= 0 && value < 256 && Number.isInteger(value)))
      this.fail(value === undefined ? `no ${name}` : `a ${name} that is not a u8`);
    this.u8(value as number);
  }

  fail(problem: string): never {
    throw new LogCodecError(`block ${this.block} log ${this.logIndex}: kind ${this.kind} event has ${problem}`);
  }
}

/** Reads a payload; every read past the end is a LogCodecError, and every new id must be the next one. */
class ByteReader {
  at = 0;
  block = 0;
  /** Ids named so far, per space: the next new id of each. */
  readonly used: number[];

  constructor(
    readonly buffer: Buffer,
    private readonly dictionary: IdDictionary,
    bases: readonly number[],
  ) {
    assert(bases.length === ID_SPACES.length, 'a reader starts from one base per id space');
    this.used = [...bases];
  }

  need(bytes: number): void {
    // Lengths are u32s (times a width) read from the payload: never negative, whatever the damage.
    assert(bytes >= 0, 'a read takes a non-negative number of bytes');
    if (this.at + bytes > this.buffer.length) throw new LogCodecError(`payload ends inside block ${this.block}`);
  }

  u8(): number {
    this.need(1);
    return this.buffer[this.at++]!;
  }

  u32(): number {
    this.need(4);
    const value = this.buffer.readUInt32LE(this.at);
    this.at += 4;
    return value;
  }

  f64(): number {
    this.need(8);
    const value = this.buffer.readDoubleLE(this.at);
    this.at += 8;
    return value;
  }

  hex32(prefix: string): string {
    assert(prefix === '' || prefix === '0x', 'a 32-byte field reads with no prefix or 0x');
    this.need(HASH_BYTES);
    const text = prefix + this.buffer.toString('hex', this.at, this.at + HASH_BYTES);
    this.at += HASH_BYTES;
    return text;
  }

  id(space: IdSpace): string {
    const id = this.u32();
    const used = this.used[space]!;
    if (id >= used) {
      if (id !== used)
        throw new LogCodecError(`block ${this.block}: id ${id} named before id ${used} (space ${space})`);
      this.used[space] = used + 1;
    }
    // An id is an older one or the next new one, which then counts as named: every id read is below the count.
    assert(id < this.used[space]!, 'an id read is one the payload has numbered');
    const text = this.dictionary.text(space, id);
    if (text === undefined)
      throw new LogCodecError(`block ${this.block}: id ${id} of space ${space} has no definition`);
    return text;
  }

  ids(space: IdSpace): string[] {
    const count = this.count(4);
    const start = this.at;
    const values = new Array<string>(count);
    for (let i = 0; i < count; i++) values[i] = this.id(space);
    assert(this.at === start + count * 4, 'an id list reads a u32 per id');
    return values;
  }

  f64s(): number[] {
    const count = this.count(8);
    const start = this.at;
    const values = new Array<number>(count);
    for (let i = 0; i < count; i++) values[i] = this.f64();
    assert(this.at === start + count * 8, 'a number list reads an f64 per number');
    return values;
  }

  bytes(): string {
    const length = this.count(1);
    const text = '0x' + this.buffer.toString('hex', this.at, this.at + length);
    this.at += length;
    assert(text.length === 2 + length * 2, 'a bytes field reads whole');
    return text;
  }

  flag(): boolean {
    return this.u8() !== 0;
  }

  /** A length prefix, checked against what is left before anything is allocated for it. */
  private count(width: number): number {
    const count = this.u32();
    this.need(count * width);
    return count;
  }
}

type EncodeEvent = (writer: ByteWriter, dictionary: IdDictionary, event: ChainEvent) => void;
type DecodeEvent = (reader: ByteReader, logIndex: number, txIndex: number, tx: string) => ChainEvent;

// Per kind, generated from EVENT_SCHEMA (our own constant; every name is checked to be a plain identifier
// first): named reads and one object literal per kind keep the hot loops monomorphic, as decoding measured
// 1.5x faster that way than with keyed loads over the field names.
const ENCODE_BY_KIND: (EncodeEvent | undefined)[] = [];
const DECODE_BY_KIND: (DecodeEvent | undefined)[] = [];

const WRITE_BY_TYPE: Record<FieldType, (name: string) => string> = {
  address: (name) => `w.id(d, ${ID_SPACE.address}, e.${name}, '${name}');`,
  token: (name) => `w.id(d, ${ID_SPACE.token}, e.${name}, '${name}');`,
  condition: (name) => `w.id(d, ${ID_SPACE.condition}, e.${name}, '${name}');`,
  bytes32: (name) => `w.hex32(e.${name}, 2, '${name}');`,
  word: (name) => `w.hex32(e.${name}, 0, '${name}');`,
  number: (name) => `w.f64(e.${name}, '${name}');`,
  numbers: (name) => `w.f64s(e.${name}, '${name}');`,
  tokens: (name) => `w.ids(d, ${ID_SPACE.token}, e.${name}, '${name}');`,
  conditions: (name) => `w.ids(d, ${ID_SPACE.condition}, e.${name}, '${name}');`,
  addresses: (name) => `w.ids(d, ${ID_SPACE.address}, e.${name}, '${name}');`,
  bytes: (name) => `w.bytes(e.${name}, '${name}');`,
  bool: (name) => `w.flag(e.${name}, '${name}');`,
  exchange: (name) => `w.small(e.${name}, '${name}');`,
};
const READ_BY_TYPE: Record<FieldType, string> = {
  address: `r.id(${ID_SPACE.address})`,
  token: `r.id(${ID_SPACE.token})`,
  condition: `r.id(${ID_SPACE.condition})`,
  bytes32: `r.hex32('0x')`,
  word: `r.hex32('')`,
  number: 'r.f64()',
  numbers: 'r.f64s()',
  tokens: `r.ids(${ID_SPACE.token})`,
  conditions: `r.ids(${ID_SPACE.condition})`,
  addresses: `r.ids(${ID_SPACE.address})`,
  bytes: 'r.bytes()',
  bool: 'r.flag()',
  exchange: 'r.u8()',
};

for (const [kindText, schema] of Object.entries(EVENT_SCHEMA)) {
  const kind = Number(kindText);
  const fields = Object.entries(schema);
  for (const [name] of fields) {
    assert(/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name), `EVENT_SCHEMA[${kind}]: ${name} is a field name`);
  }
  ENCODE_BY_KIND[kind] = new Function(
    'w',
    'd',
    'e',
    fields.map(([name, type]) => WRITE_BY_TYPE[type](name)).join('\n'),
  ) as EncodeEvent;
  DECODE_BY_KIND[kind] = new Function(
    'r',
    'logIndex',
    'txIndex',
    'tx',
    `return { kind: ${kind}, logIndex, txIndex, tx, ${fields.map(([name, type]) => `${name}: ${READ_BY_TYPE[type]}`).join(', ')} };`,
  ) as DecodeEvent;
}

export interface EncodedBlocks {
  /** `reserve` bytes for the caller, then the payload. */
  bytes: Buffer;
  payload: Buffer;
}

const body = new ByteWriter(1 << 20);

/**
 * Encodes blocks, numbering the ids they name first in `dictionary`. On failure the dictionary is left as it
 * was. The bytes are their own memory, never the shared pool: they may be transferred to another thread.
 */
export function encodeBlocks(blocks: readonly BlockEvents[], dictionary: IdDictionary, reserve = 0): EncodedBlocks {
  assert(Number.isSafeInteger(reserve) && reserve >= 0, 'the bytes reserved before a payload are a count');
  const bases = dictionary.counts();
  body.at = 0;
  try {
    body.u32(blocks.length, 'block count');
    const txs = new Map<string, number>();
    for (const block of blocks) {
      body.block = block.block;
      body.logIndex = -1;
      body.f64(block.block, 'block number');
      body.f64(block.ts, 'timestamp');
      body.hex32(block.hash, 2, 'block hash');
      txs.clear();
      for (const event of block.events) if (!txs.has(event.tx)) txs.set(event.tx, txs.size);
      body.u32(txs.size, 'tx count');
      for (const tx of txs.keys()) body.hex32(tx, 2, 'tx');
      body.u32(block.events.length, 'event count');
      for (const event of block.events) {
        body.logIndex = event.logIndex;
        body.kind = event.kind;
        const encode = ENCODE_BY_KIND[event.kind];
        if (encode === undefined) throw new LogCodecError(`block ${block.block}: unknown event kind ${event.kind}`);
        body.u8(event.kind);
        body.u32(event.logIndex, 'logIndex');
        body.u32(event.txIndex, 'txIndex');
        const tx = txs.get(event.tx);
        assert(tx !== undefined, "an event's tx is in its block's tx list");
        body.u32(tx, 'tx');
        encode(body, dictionary, event);
      }
    }
  } catch (error) {
    dictionary.truncate(bases);
    for (const space of ID_SPACES) assert(dictionary.count(space) === bases[space], 'a failed encoding adds no id');
    throw error;
  }
  const after = dictionary.counts();
  let defsBytes = DEFINITIONS_HEADER_BYTES;
  for (const space of ID_SPACES) {
    assert(after[space] >= bases[space], 'encoding only adds ids');
    defsBytes += (after[space] - bases[space]) * ID_BYTES[space]!;
  }
  const bytes = Buffer.allocUnsafeSlow(reserve + defsBytes + body.at);
  let at = reserve;
  for (const space of ID_SPACES) {
    at = bytes.writeUInt32LE(bases[space], at);
    at = bytes.writeUInt32LE(after[space] - bases[space], at);
  }
  for (const space of ID_SPACES) {
    for (let id = bases[space]; id < after[space]; id++) {
      dictionary.writeBytes(space, id, bytes, at);
      at += ID_BYTES[space]!;
    }
  }
  assert(at === reserve + defsBytes, "a payload's definitions fill the section sized for them");
  body.buffer.copy(bytes, at, 0, body.at);
  return { bytes, payload: bytes.subarray(reserve) };
}

/** The id counts a payload starts from and ends at (its definitions), without decoding its blocks. */
export interface PayloadDefinitions {
  bases: IdCounts;
  counts: IdCounts;
  /** Bytes of the definitions section: a payload's first `bytes` bytes are all absorbDefinitions reads. */
  bytes: number;
}

/** Reads a payload's definitions header (at least DEFS_HEADER_BYTES of it). */
export function readDefinitionsHeader(payload: Buffer): PayloadDefinitions {
  if (payload.length < DEFINITIONS_HEADER_BYTES)
    throw new LogCodecError('payload is shorter than its definitions header');
  const bases = [0, 0, 0] as IdCounts;
  const counts = [0, 0, 0] as IdCounts;
  let bytes = DEFINITIONS_HEADER_BYTES;
  for (const space of ID_SPACES) {
    bases[space] = payload.readUInt32LE(space * 8);
    counts[space] = bases[space] + payload.readUInt32LE(space * 8 + 4);
    bytes += (counts[space] - bases[space]) * ID_BYTES[space]!;
    // A count of new ids is a u32 added to the base: the section never shrinks the numbering.
    assert(counts[space] >= bases[space] && bytes >= DEFINITIONS_HEADER_BYTES, 'a payload defines ids after its base');
  }
  return { bases, counts, bytes };
}

/** Adds a payload's definitions to the dictionary, which must end where they start (the next frame of the log). */
export function absorbDefinitions(payload: Buffer, dictionary: IdDictionary): PayloadDefinitions {
  const defs = readDefinitionsHeader(payload);
  if (payload.length < defs.bytes) throw new LogCodecError('payload ends inside its definitions');
  const known = dictionary.counts();
  for (const space of ID_SPACES) {
    if (defs.bases[space] !== known[space]) {
      throw new LogCodecError(
        `payload defines ids from ${defs.bases[space]} of space ${space}, the log has ${known[space]}`,
      );
    }
  }
  let at = DEFINITIONS_HEADER_BYTES;
  try {
    for (const space of ID_SPACES) {
      for (let id = defs.bases[space]; id < defs.counts[space]; id++) {
        dictionary.define(space, payload, at);
        at += ID_BYTES[space]!;
      }
    }
  } catch (error) {
    dictionary.truncate(known);
    throw error;
  }
  assert(at === defs.bytes, 'the definitions absorbed fill the section their header sizes');
  const absorbed = dictionary.counts();
  for (const space of ID_SPACES)
    assert(absorbed[space] === defs.counts[space], 'a dictionary ends where the definitions it absorbed end');
  return defs;
}

/**
 * Decodes a payload whose definitions the dictionary holds (absorbDefinitions). Throws LogCodecError on a
 * malformed one.
 */
export function decodeBlocks(payload: Buffer, dictionary: IdDictionary): BlockEvents[] {
  return [...decodePayloadBlocks(payload, dictionary)];
}

/**
 * decodeBlocks a block at a time, as the caller takes them, so that a fold's decoded events die young (a frame
 * decoded whole outlived the collections of the young generation and was promoted). The payload must not change
 * until the last block is taken; the checks of its end come after it.
 */
export function* decodePayloadBlocks(payload: Buffer, dictionary: IdDictionary): Generator<BlockEvents> {
  const defs = readDefinitionsHeader(payload);
  const known = dictionary.counts();
  for (const space of ID_SPACES) {
    if (defs.counts[space] > known[space])
      throw new LogCodecError(`payload names ids the dictionary lacks (space ${space})`);
  }
  const reader = new ByteReader(payload, dictionary, defs.bases);
  reader.at = defs.bytes;
  const blockCount = reader.u32();
  for (let b = 0; b < blockCount; b++) {
    let block: BlockEvents;
    try {
      block = decodeBlock(reader);
    } catch (error) {
      if (error instanceof RangeError) throw new LogCodecError(`payload ends inside block ${reader.block}`);
      throw error;
    }
    yield block;
  }
  if (reader.at !== payload.length)
    throw new LogCodecError(`payload has ${payload.length - reader.at} bytes after its last block`);
  for (const space of ID_SPACES) {
    if (reader.used[space] !== defs.counts[space])
      throw new LogCodecError(`payload defines ids of space ${space} it never names`);
  }
}

function decodeBlock(reader: ByteReader): BlockEvents {
  const number = reader.f64();
  reader.block = number;
  const ts = reader.f64();
  const hash = reader.hex32('0x');
  const txCount = reader.u32();
  reader.need(txCount * HASH_BYTES);
  const txs = new Array<string>(txCount);
  for (let i = 0; i < txCount; i++) txs[i] = reader.hex32('0x');
  const eventCount = reader.u32();
  // encodeBlocks lists the distinct transactions of the block's events, once each (the frame's crc held).
  assert(txCount <= eventCount, "a block lists only its events' transactions");
  reader.need(eventCount);
  const events = new Array<ChainEvent>(eventCount);
  for (let e = 0; e < eventCount; e++) {
    const kind = reader.u8();
    const decode = DECODE_BY_KIND[kind];
    if (decode === undefined) throw new LogCodecError(`block ${number}: unknown event kind ${kind}`);
    const logIndex = reader.u32();
    const txIndex = reader.u32();
    const tx = txs[reader.u32()];
    if (tx === undefined)
      throw new LogCodecError(`block ${number} log ${logIndex}: names a tx beyond the block's ${txCount}`);
    events[e] = decode(reader, logIndex, txIndex, tx);
  }
  // need() guards every read: a reader never runs past its payload, it throws first.
  assert(reader.at <= reader.buffer.length, 'a block decodes inside its payload');
  return { block: number, ts, hash, events };
}
