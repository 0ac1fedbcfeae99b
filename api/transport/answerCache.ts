// Answer bytes by request URL, for one generation of the state (engine/README.md, Pipeline: an answer is a function of
// the folded block, the off-chain data and the query). Dashboards and bots poll the same answers between blocks;
// they get the bytes, and their compressions, that the first requests paid for. A new generation empties it;
// past its byte budget the least recently served answers go, down to three quarters of it.
import type { Coding } from './contentCoding.js';

export interface CachedAnswer {
  json: Buffer;
  /** The gzip of json, once made. */
  gzip?: Buffer;
  /** The brotli of json, once made. */
  br?: Buffer;
  /** Compressed whenever the client takes it, whatever its size (the fills feed, spec 4.9). */
  compressAlways?: boolean;
  /** The route's own headers for this answer (a HeadedAnswer's), written beside the rate headers. */
  headers?: Record<string, string>;
  /** A strong ETag of json, for routes that offer conditional requests. */
  etag?: string;
  /** When it was last served, in cache lookups (the recency that eviction goes by). */
  usedAt?: number;
}

export interface AnswerCache {
  get(generation: string, url: string): CachedAnswer | undefined;
  set(generation: string, url: string, answer: CachedAnswer): void;
  /** Records a compression made after the answer was cached (dropped if the generation moved on meanwhile). */
  setCompressed(generation: string, url: string, answer: CachedAnswer, coding: Coding, bytes: Buffer): void;
}

/** What an entry costs beyond its bytes: its URL key (two bytes a character) and the objects around it. */
const entryCost = (url: string, answer: CachedAnswer) =>
  url.length * 2 + 200 + answer.json.length + (answer.gzip?.length ?? 0) + (answer.br?.length ?? 0);

export function createAnswerCache(maxBytes = 64 * 1024 * 1024): AnswerCache {
  let current = '';
  let bytes = 0;
  let lookups = 0;
  const entries = new Map<string, CachedAnswer>();
  const enter = (generation: string) => {
    if (generation === current) return;
    current = generation;
    entries.clear();
    bytes = 0;
  };
  // Over budget: the least recently served go (a sort, but only when the budget is passed, not on every hit).
  const evict = () => {
    if (bytes <= maxBytes) return;
    for (const [url, answer] of [...entries].sort((a, b) => a[1].usedAt! - b[1].usedAt!)) {
      if (bytes <= maxBytes * 0.75) break;
      entries.delete(url);
      bytes -= entryCost(url, answer);
    }
  };
  return {
    get(generation, url) {
      enter(generation);
      const answer = entries.get(url);
      if (answer) answer.usedAt = ++lookups;
      return answer;
    },
    set(generation, url, answer) {
      enter(generation);
      if (answer.json.length > maxBytes / 4) return;
      const old = entries.get(url);
      if (old) bytes -= entryCost(url, old);
      answer.usedAt = ++lookups;
      entries.set(url, answer);
      bytes += entryCost(url, answer);
      evict();
    },
    setCompressed(generation, url, answer, coding, compressed) {
      if (generation !== current || answer[coding]) return;
      answer[coding] = compressed;
      // Counted only while the answer is still held (it may have been evicted meanwhile).
      if (entries.get(url) === answer) {
        bytes += compressed.length;
        evict();
      }
    },
  };
}
