// A Bloom filter of pairs of ids (a position's wallet and token, an index key's market and wallet): "may this pair
// have been added?" with no false "no", in a fixed bitmap. The wallet worker asks it before looking a key up in the
// state, since a lookup that misses still walks the B-tree: in a fold from an empty state nearly every new position
// was such a walk (about a sixth of the worker's time on the 200k refold).
import { assert } from '../assert.js';

/** Bits per filter: 4 MiB. With three probes, 1% false answers at 2.7 million pairs (a 10-million-fill venue). */
const BITS_LOG2 = 25;
const MASK = (1 << BITS_LOG2) - 1;

export interface PairFilter {
  add(a: number, b: number): void;
  /** False: never added. True: added, or (rarely) a false alarm. */
  mayHold(a: number, b: number): boolean;
}

export function createPairFilter(): PairFilter {
  const words = new Uint32Array(1 << (BITS_LOG2 - 5));
  // A probe's bit is masked to MASK: the bitmap must hold every bit it can name, or a "no" would be read off its end.
  assert(words.length * 32 === MASK + 1, 'a pair filter holds every bit a probe names');
  // Two independent mixes of the pair; the probes are h1 + i * h2 (Kirsch-Mitzenmacher).
  const mix = (a: number, b: number, seed: number) => {
    let h = Math.imul(a ^ seed, 0x9e3779b1) ^ Math.imul(b + seed, 0x85ebca6b);
    h ^= h >>> 15;
    h = Math.imul(h, 0xc2b2ae35);
    return (h ^ (h >>> 13)) >>> 0;
  };
  const probe = (a: number, b: number, set: boolean): boolean => {
    // State ids (createStateIds): never NO_MARKET or the worker's STORED, which name no market.
    assert(a >= 0 && b >= 0, 'a pair filter holds pairs of ids');
    const h1 = mix(a, b, 0x3c6ef372);
    const h2 = mix(b, a, 0x27d4eb2f) | 1;
    for (let i = 0; i < 3; i++) {
      const bit = (h1 + Math.imul(i, h2)) & MASK;
      const word = bit >>> 5;
      const flag = 1 << (bit & 31);
      if (set) words[word]! |= flag;
      else if ((words[word]! & flag) === 0) return false;
    }
    return true;
  };
  return {
    add: (a, b) => void probe(a, b, true),
    mayHold: (a, b) => probe(a, b, false),
  };
}
