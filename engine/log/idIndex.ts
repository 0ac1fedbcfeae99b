// The capture reader's copy of the log's dictionary (replay/source/captureReaderWorker.ts), off the JS heap. The
// reader only numbers the ids its frames name (text -> id) and writes the new ones' values into the frames; it
// never turns an id back into text. So it keeps the values' bytes and an index of them (IdValueTable), not a
// string and a map entry an id as the log's own dictionary does for the fold, which needs the texts.
import {
  ID_BYTES,
  ID_SPACES,
  notAnId,
  TEXT_PREFIX,
  type IdCounts,
  type IdDictionary,
  type IdSpace,
  type IdWriter,
} from './idDictionary.js';
import { IdValueTable } from './idValueTable.js';

/** Value of a lowercase hex digit by char code, -1 for anything else (ids' texts are lowercase). */
const LOWER_HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) LOWER_HEX_VALUE[48 + i] = i;
for (let i = 0; i < 6; i++) LOWER_HEX_VALUE[97 + i] = 10 + i;

export class IdIndex implements IdWriter {
  private readonly tables = ID_SPACES.map((space) => new IdValueTable(ID_BYTES[space]!));
  /** A text's value, parsed for a lookup. */
  private readonly scratch = Buffer.alloc(Math.max(...ID_BYTES));

  /** The same ids as `dictionary`, numbered alike. */
  static of(dictionary: IdDictionary): IdIndex {
    const index = new IdIndex();
    const counts = dictionary.counts();
    for (const space of ID_SPACES) {
      const table = index.tables[space]!;
      for (let id = 0; id < counts[space]; id++) {
        dictionary.writeBytes(space, id, index.scratch, 0);
        table.push(index.scratch, 0);
      }
    }
    return index;
  }

  counts(): IdCounts {
    return [this.tables[0]!.count, this.tables[1]!.count, this.tables[2]!.count];
  }

  intern(space: IdSpace, text: string): number {
    if (!this.parse(space, text)) throw notAnId(space, text);
    const table = this.tables[space]!;
    const known = table.find(this.scratch, 0);
    return known >= 0 ? known : table.push(this.scratch, 0);
  }

  writeBytes(space: IdSpace, id: number, bytes: Buffer, at: number): void {
    this.tables[space]!.copyValue(id, bytes, at);
  }

  truncate(counts: IdCounts): void {
    for (const space of ID_SPACES) this.tables[space]!.truncate(counts[space]);
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
