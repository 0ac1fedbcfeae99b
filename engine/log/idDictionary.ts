// The log's id dictionaries (engine/README.md, Pipeline): every address, token id and condition id the log names
// gets a number, in the order the log first names it, so the numbering is a pure function of the log. A frame
// carries the definitions of the ids it names first (logCodec), so the log alone rebuilds the dictionaries; the
// fold keys its state by these ids. Each id's text is one shared string: decoding a reference allocates nothing.
import { LogCodecError } from './logCodecError.js';

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
  return TEXT_PREFIX[space]! + bytes.toString('hex');
}

/** How many ids of each space exist: [addresses, tokens, conditions]. */
export type IdCounts = [addresses: number, tokens: number, conditions: number];

/** What a frame's encoder needs of a dictionary: this one, or the capture reader's off the heap (IdIndex). */
export interface IdWriter {
  counts(): IdCounts;
  /** The id of a text, numbering it next if it is new; a text not of the space is a LogCodecError. */
  intern(space: IdSpace, text: string): number;
  /** Writes the value of an id as bytes at `bytes[at..]`. */
  writeBytes(space: IdSpace, id: number, bytes: Buffer, at: number): void;
  /** Forgets every id at or above `counts`. */
  truncate(counts: IdCounts): void;
}

export class IdDictionary implements IdWriter {
  private readonly texts: string[][] = [[], [], []];
  private readonly ids: Map<string, number>[] = [new Map(), new Map(), new Map()];

  count(space: IdSpace): number {
    return this.texts[space]!.length;
  }

  counts(): IdCounts {
    return [this.texts[0]!.length, this.texts[1]!.length, this.texts[2]!.length];
  }

  /** The text of an id; undefined beyond the count. */
  text(space: IdSpace, id: number): string | undefined {
    return this.texts[space]![id];
  }

  /** The id of a text, undefined when the log never named it. */
  idOf(space: IdSpace, text: string): number | undefined {
    return this.ids[space]!.get(text);
  }

  /** The id of a text, numbering it next if it is new (the log writer's side). */
  intern(space: IdSpace, text: string): number {
    const known = this.ids[space]!.get(text);
    if (known !== undefined) return known;
    const prefix = TEXT_PREFIX[space]!;
    const digits = ID_BYTES[space]! * 2;
    if (
      typeof text !== 'string' ||
      text.length !== prefix.length + digits ||
      !text.startsWith(prefix) ||
      !LOWER_HEX.test(text.slice(prefix.length))
    ) {
      throw notAnId(space, text);
    }
    return this.push(space, text);
  }

  /** Adds the definition at `bytes[at..]` as the next id of the space (the log reader's side). */
  define(space: IdSpace, bytes: Buffer, at: number): void {
    const text = TEXT_PREFIX[space]! + bytes.toString('hex', at, at + ID_BYTES[space]!);
    if (this.ids[space]!.has(text)) throw new LogCodecError(`${SPACE_NAMES[space]} ${text} is defined twice`);
    this.push(space, text);
  }

  /** Writes the value of an id as bytes at `bytes[at..]`. */
  writeBytes(space: IdSpace, id: number, bytes: Buffer, at: number): void {
    bytes.write(this.texts[space]![id]!.slice(TEXT_PREFIX[space]!.length), at, ID_BYTES[space]!, 'hex');
  }

  /** Forgets every id at or above `counts` (a log cut back to an earlier block). */
  truncate(counts: IdCounts): void {
    for (const space of ID_SPACES) {
      const texts = this.texts[space]!;
      for (let id = counts[space]; id < texts.length; id++) this.ids[space]!.delete(texts[id]!);
      texts.length = Math.min(texts.length, counts[space]);
    }
  }

  private push(space: IdSpace, text: string): number {
    const id = this.texts[space]!.length;
    this.texts[space]!.push(text);
    this.ids[space]!.set(text, id);
    return id;
  }
}

const LOWER_HEX = /^[0-9a-f]*$/;
