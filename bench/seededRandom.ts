// Deterministic numbers for the benchmarks' synthetic states: the same state from the same seed.

/** xorshift32: numbers in [0, 1). */
export function createRandom(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4_294_967_296;
  };
}

/** `digits` random hex digits. */
export const hex = (random: () => number, digits: number) =>
  Array.from({ length: digits }, () => Math.floor(random() * 16).toString(16)).join('');
