// The log's id dictionaries (engine/README.md, Pipeline): every address, token id and condition id the log names
// gets a number, in the order the log first names it, so the numbering is a pure function of the log. A frame
// carries the definitions of the ids it names first (logCodec), so the log alone rebuilds the dictionaries; the
// fold keys its state by these ids.
import { LogCodecError } from './logCodecError.js';
import { IdValueTable } from './idValueTable.js';
import { assert } from '../assert.js';
import { LOG_ID_TEXT_CACHE } from '../limits.js';

export const ID_SPACE = { address: 0, token: 1, condition: 2 } as const;
export type IdSpace = (typeof ID_SPACE)[keyof typeof ID_SPACE];
export const ID_SPACES: readonly IdSpace[] = [ID_SPACE.address, ID_SPACE.token, ID_SPACE.condition];

/** Bytes of one value per space. */
export const ID_BYTES: readonly number[] = [20, 32, 32];
/** Text form per space: an address and a condition id are 0x-prefixed, a token id (a uint256 word) is not. */
export const TEXT_PREFIX: readonly string[] = ['0x', '', '0x'];
const SPACE_NAMES = ['address', 'token id', 'condition id'];

/** The error for a text that is not an id of the space. */
export function notAnId(space: IdSpace, text: unknown): LogCodecError {
  return new LogCodecError(`not a lowercase ${SPACE_NAMES[space]}: ${String(text)}`);
}

/** The bytes of an id's text (checked by the caller: a text from the log or the fold). */
export function idTextBytes(space: IdSpace, text: string): Buffer {
  return Buffer.from(text.slice(TEXT_PREFIX[space]!.length), 'hex');
}

/** The text of an id's bytes. */
export function idBytesText(space: IdSpace, bytes: Buffer): string {
  // The bytes are an id's value as tally stored it (the state's ids table, the log's dictionary).
  assert(bytes.length === ID_BYTES[space], "an id's bytes are its space's width");
  return TEXT_PREFIX[space]! + bytes.toString('hex');
}

/** How many ids of each space exist: [addresses, tokens, conditions]. */
export type IdCounts = [addresses: number, tokens: number, conditions: number];

/**
 * The log's dictionary, off the JS heap (idValueTable.ts): each space's values back to back in one buffer, found by an
 * open-addressing index, so that a million wallets cost about 28 MiB of native memory instead of a string and a map
 * entry each on the fold's heap, which grew with the venue's history. Texts are made when asked for (a frame
 * decoded names each id by its text) and the recent ones kept in a bounded cache, so that a block's references to
 * one wallet share one string. The capture reader, which only numbers texts, never asks for one.
 */
export class IdDictionary {
  private readonly tables = ID_SPACES.map((space) => new IdValueTable(ID_BYTES[space]!));
  /** Per space, made on the first text asked for: the text of an id at `id & mask`, and which id it is of. */
  private readonly caches: ({ texts: string[]; ids: Int32Array } | null)[] = [null, null, null];
  /** A text's value, parsed for a lookup. */
  private readonly scratch = Buffer.alloc(Math.max(...ID_BYTES));
  /** Cuts that forgot ids so far: what others keep by id is stale once it changes. */
  generation = 0;

  constructor(
    /** Texts each space's cache holds: a power of two. */
    private readonly textCache = LOG_ID_TEXT_CACHE,
  ) {
    assert((textCache & (textCache - 1)) === 0 && textCache > 0, 'id dictionary: the text cache is a power of two');
  }

  count(space: IdSpace): number {
    return this.tables[space]!.count;
  }

  counts(): IdCounts {
    return [this.tables[0]!.count, this.tables[1]!.count, this.tables[2]!.count];
  }

  /** The text of an id; undefined beyond the count. */
  text(space: IdSpace, id: number): string | undefined {
    const table = this.tables[space]!;
    if (!(id >= 0 && id < table.count)) return undefined;
    const cache = (this.caches[space] ??= {
      texts: new Array<string>(this.textCache),
      ids: new Int32Array(this.textCache).fill(-1),
    });
    const slot = id & (this.textCache - 1);
    if (cache.ids[slot] === id) return cache.texts[slot];
    const text = TEXT_PREFIX[space]! + table.hex(id);
    assert(
      text.length === TEXT_PREFIX[space]!.length + ID_BYTES[space]! * 2,
      "an id's text is its prefix and hex value",
    );
    cache.ids[slot] = id;
    cache.texts[slot] = text;
    return text;
  }

  /** The id of a text, undefined when the log never named it (or it is not an id of the space). */
  idOf(space: IdSpace, text: string): number | undefined {
    if (!this.parse(space, text)) return undefined;
    const id = this.tables[space]!.find(this.scratch, 0);
    assert(id < this.tables[space]!.count, 'an id found is numbered');
    return id >= 0 ? id : undefined;
  }

  /** The id of the value at `bytes[at..]`, -1 when the log never named it. */
  idOfBytes(space: IdSpace, bytes: Buffer, at: number): number {
    assert(at >= 0 && at + ID_BYTES[space]! <= bytes.length, 'a value looked up is whole');
    return this.tables[space]!.find(bytes, at);
  }

  /** The id of a text, numbering it next if it is new (the log writer's side); a text not of the space is refused. */
  intern(space: IdSpace, text: string): number {
    if (!this.parse(space, text)) throw notAnId(space, text);
    const table = this.tables[space]!;
    const known = table.find(this.scratch, 0);
    const id = known >= 0 ? known : table.push(this.scratch, 0);
    assert(id < table.count, 'an interned id is numbered');
    return id;
  }

  /** Adds the definition at `bytes[at..]` as the next id of the space (the log reader's side). */
  define(space: IdSpace, bytes: Buffer, at: number): void {
    // absorbDefinitions checked that its payload holds every definition its header counts.
    assert(at >= 0 && at + ID_BYTES[space]! <= bytes.length, 'a definition is whole');
    const table = this.tables[space]!;
    if (table.find(bytes, at) >= 0) {
      const text = TEXT_PREFIX[space]! + bytes.toString('hex', at, at + ID_BYTES[space]!);
      throw new LogCodecError(`${SPACE_NAMES[space]} ${text} is defined twice`);
    }
    table.push(bytes, at);
    assert(table.find(bytes, at) === table.count - 1, 'a value defined is found as the newest id');
  }

  /** Writes the value of an id as bytes at `bytes[at..]`. */
  writeBytes(space: IdSpace, id: number, bytes: Buffer, at: number): void {
    assert(id >= 0 && id < this.tables[space]!.count, 'only a numbered id has bytes');
    assert(at >= 0 && at + ID_BYTES[space]! <= bytes.length, "an id's bytes fit where they are written");
    this.tables[space]!.copyValue(id, bytes, at);
  }

  /** Forgets every id at or above `counts` (a log cut back to an earlier block, a frame refused). */
  truncate(counts: IdCounts): void {
    if (ID_SPACES.some((space) => counts[space] < this.tables[space]!.count)) this.generation++;
    for (const space of ID_SPACES) {
      assert(Number.isSafeInteger(counts[space]) && counts[space] >= 0, 'ids are cut back to a count');
      this.tables[space]!.truncate(counts[space]);
      assert(this.tables[space]!.count <= counts[space], 'a cut forgets every id at or above it');
      const cache = this.caches[space];
      if (cache)
        for (let slot = 0; slot < cache.ids.length; slot++) if (cache.ids[slot]! >= counts[space]) cache.ids[slot] = -1;
    }
  }

  /** Parses a text of the space (its prefix, then lowercase hex of the value's width) into the scratch bytes. */
  private parse(space: IdSpace, text: unknown): boolean {
    const prefix = TEXT_PREFIX[space]!;
    const width = ID_BYTES[space]!;
    if (typeof text !== 'string' || text.length !== prefix.length + width * 2 || !text.startsWith(prefix)) return false;
    for (let i = 0, at = prefix.length; i < width; i++, at += 2) {
      const high = LOWER_HEX_VALUE[text.charCodeAt(at)] ?? -1;
      const low = LOWER_HEX_VALUE[text.charCodeAt(at + 1)] ?? -1;
      if ((high | low) < 0) return false;
      this.scratch[i] = (high << 4) | low;
    }
    return true;
  }
}

/** Value of a lowercase hex digit by char code, -1 for anything else (ids' texts are lowercase). */
const LOWER_HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) LOWER_HEX_VALUE[48 + i] = i;
for (let i = 0; i < 6; i++) LOWER_HEX_VALUE[97 + i] = 10 + i;
