// The text a market search looks in (GET /v1/markets?q=): every market of the loaded metadata, its question, slug
// and event slug lowercased into one line of one string, built once per off-chain revision (a metadata load is the
// only thing that changes them). A search runs indexOf over that string, so the index holds one string and the
// ids, not an object per market.
import { decodeValue } from '../../engine/state/stateCodec.js';
import type { MarketMetadata } from '../../engine/offchain/marketMetadata.js';
import type { OffchainStore } from '../../engine/offchain/openOffchainStore.js';

/**
 * Text as the index holds it: lowercase, curly quotes straight, and any other character past Latin-1 a space. So
 * the joined string stays one byte a character (one curly quote in one question would double it), and a search's
 * words are read the same way.
 */
export function searchText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[^\u0000-\u00ff]|\n/g, ' ');
}

/** The words of a search, as searchText reads them. */
export function searchWords(q: string): string[] {
  return searchText(q)
    .split(/\s+/)
    .filter((word) => word !== '');
}

export interface MarketTextIndex {
  /**
   * The condition ids (as the metadata names them) whose line holds every word, in metadata order: the first
   * `max` of them, and whether there were more.
   */
  find(revision: number, words: string[], max: number): { ids: string[]; more: boolean };
}

interface Built {
  revision: number;
  text: string;
  /** Where each line starts in `text`, and one past the end. */
  starts: Int32Array;
  ids: string[];
}

function build(offchain: OffchainStore, revision: number): Built {
  const ids: string[] = [];
  const lines: string[] = [];
  for (const { value } of offchain.metadata.getRange({})) {
    const market = decodeValue<MarketMetadata>(value);
    ids.push(market.conditionId);
    lines.push(searchText(`${market.question ?? ''} ${market.slug ?? ''} ${market.eventSlug ?? ''}`));
  }
  const starts = new Int32Array(lines.length + 1);
  let at = 0;
  lines.forEach((line, i) => {
    starts[i] = at;
    at += line.length + 1;
  });
  starts[lines.length] = at;
  return { revision, text: lines.join('\n'), starts, ids };
}

/** The line holding offset `at`: the last start at or before it. */
function lineOf(starts: Int32Array, at: number): number {
  let low = 0;
  let high = starts.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}

export function createMarketTextIndex(offchain: OffchainStore): MarketTextIndex {
  let built: Built | null = null;
  return {
    find(revision, words, max) {
      if (built?.revision !== revision) built = build(offchain, revision);
      const { text, starts, ids } = built;
      // The longest word finds the fewest candidate lines; the others are checked within each.
      const [first, ...others] = [...words].sort((a, b) => b.length - a.length);
      const found: string[] = [];
      for (let at = text.indexOf(first!); at >= 0 && found.length <= max; ) {
        const line = lineOf(starts, at);
        const end = starts[line + 1]! - 1;
        const content = text.slice(starts[line]!, end);
        if (others.every((word) => content.includes(word))) found.push(ids[line]!);
        at = text.indexOf(first!, end + 1);
      }
      return { ids: found.slice(0, max), more: found.length > max };
    },
  };
}
