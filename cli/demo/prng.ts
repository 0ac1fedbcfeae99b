// The demo venue's randomness: a small seeded generator (sfc32) and cheap unique ids for block, transaction and
// order hashes. Everything the demo writes derives from these, so one seed gives byte-identical files.

// Four hex digits for every 16-bit value: a 64-hex string costs 16 table reads and concatenations.
const HEX16: string[] = new Array<string>(65536);
for (let i = 0; i < 65536; i++) HEX16[i] = i.toString(16).padStart(4, '0');

/** 8 hex digits of a 32-bit unsigned value. */
export function hex32(value: number): string {
  return HEX16[value >>> 16]! + HEX16[value & 0xffff]!;
}

/** murmur3's finalizer: a bijection on 32-bit values with a good avalanche, in a few integer ops. */
export function mix32(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const POOL_WORDS = 8_210; // 65,680 hex digits: every offset below 65,536 leaves 56 digits

/**
 * Random-looking 32-byte ids (64 hex digits, no 0x) for hashes: 56 digits sliced from a seeded pool at an
 * offset drawn from the key, then the 8 digits of mix32(key). mix32 is a bijection, so distinct 32-bit keys
 * give distinct ids. Not cryptographic; about ten times cheaper than drawing 64 digits, and a flat slice
 * plus one short piece is cheap to write out.
 */
export class HexIds {
  private readonly pool: string;
  private counter = 0;

  constructor(prng: Prng) {
    const words: string[] = [];
    for (let i = 0; i < POOL_WORDS; i++) words.push(hex32(prng.u32()));
    this.pool = words.join('');
  }

  /** The id of a 32-bit key (the same key always gives the same id). */
  of(key: number): string {
    const mixed = mix32(key);
    return this.pool.substr(mixed >>> 16, 56) + hex32(mixed);
  }

  /** The next id of an internal counter: unique for 2^32 calls. */
  next(): string {
    return this.of(this.counter++);
  }
}

/** sfc32 (Small Fast Counting): 128-bit state, passes PractRand to 2^40+, about 1 ns per draw in V8. */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed | 0;
    for (let i = 0; i < 16; i++) this.u32();
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [low, high]. */
  range(low: number, high: number): number {
    return low + Math.floor(this.float() * (high - low + 1));
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** Log-uniform in [low, high): heavy-tailed sizes (order sizes, balances). */
  logUniform(low: number, high: number): number {
    return low * Math.pow(high / low, this.float());
  }

  /** 64 random hex digits (no 0x). */
  hex64(): string {
    let out = '';
    for (let i = 0; i < 8; i++) out += hex32(this.u32());
    return out;
  }

  /** 40 random hex digits (no 0x): an address body. */
  hex40(): string {
    let out = '';
    for (let i = 0; i < 5; i++) out += hex32(this.u32());
    return out;
  }

  /** A child generator with its own stream, so one stream's draws never shift another's. */
  fork(salt: number): Prng {
    return new Prng(mix32(this.u32() ^ mix32(salt)));
  }
}
