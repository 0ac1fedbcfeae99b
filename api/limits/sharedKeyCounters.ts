// The per-key limits' counters (spec 8) in shared memory, so that every thread serving the port counts into the
// same ones (issue 26): a key's 601st request in a minute, or its 5th in flight, is refused whichever thread takes
// it. A table of key slots, each holding its key's in-flight counts and a ring of its last `perMinute` request
// times (in an arena of the same memory), each guarded by a spin lock held for the few microseconds of one
// decision; a key new to the table takes a slot under the table's own lock. A slot idle for a minute with nothing
// in flight may be taken by another key whose ring fits, so the table holds the keys active in the last minute.
import { DEFAULT_ARENA_TIMES, DEFAULT_KEY_SLOTS } from '../apiLimits.js';

/** The memory a server's threads share (structured-cloned to each, it stays one memory). */
export interface SharedCountersMemory {
  slots: SharedArrayBuffer;
  times: SharedArrayBuffer;
}

export interface RateDecision {
  allowed: boolean;
  /** Requests still allowed in the current window after this one (x-ratelimit-remaining). */
  remaining: number;
  /** Whole seconds until the oldest request leaves the window (Retry-After), when refused. */
  retryAfterSeconds: number;
}

export interface SharedKeyCounters {
  /** Counts a request of `key` against `limit` in any 60 s: allowed, or refused with the wait. */
  take(key: string, limit: number, nowMs: number): RateDecision;
  /** Takes an in-flight slot of `key`, or returns false when it is at its limits. */
  enter(
    key: string,
    ringSize: number,
    maxRequests: number,
    maxStreams: number,
    stream: boolean,
    nowMs: number,
  ): boolean;
  leave(key: string, stream: boolean): void;
}

const WINDOW_MS = 60_000;
/** Int32 fields of a slot. */
const LOCK = 0;
const USED = 1;
const HASH_HIGH = 2;
const HASH_LOW = 3;
const RING_START = 4;
/** The ring's size in use: the key's limit. */
const RING_SIZE = 5;
const RING_NEXT = 6;
const RING_COUNT = 7;
const REQUESTS = 8;
const STREAMS = 9;
/** The times the slot's ring has in the arena, from its first key (a later key's ring may use fewer). */
const RING_CAPACITY = 10;
const STRIDE = 11;
/** Int32 fields before the slots: the table's lock and the arena's next free time. */
const TABLE_LOCK = 0;
const ARENA_NEXT = 1;
const HEADER = 2;

/**
 * A key new to a table whose slots all hold keys active in the last minute (or whose arena has no room for its
 * ring): a capacity refusal, 503, until the first slot that fits goes quiet.
 */
export class LimitsTableFull extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`the limits table is full; retry in ${retryAfterSeconds} s`);
    this.name = 'LimitsTableFull';
  }
}

export function createSharedCountersMemory(
  keySlots = DEFAULT_KEY_SLOTS,
  arenaTimes = DEFAULT_ARENA_TIMES,
): SharedCountersMemory {
  return {
    slots: new SharedArrayBuffer((HEADER + keySlots * STRIDE) * 4),
    times: new SharedArrayBuffer(arenaTimes * 8),
  };
}

/** FNV-1a over the key's characters, as two 32-bit halves (0, 0 is never a key's: it marks an empty slot). */
function keyHash(key: string): [number, number] {
  let high = 0x811c9dc5;
  let low = 0x050c5d1f;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    high = Math.imul(high ^ c, 0x01000193);
    low = Math.imul(low ^ c ^ (high >>> 16), 0x01000193);
  }
  return high === 0 && low === 0 ? [1, 0] : [high, low];
}

function lock(ints: Int32Array, at: number): void {
  while (Atomics.compareExchange(ints, at, 0, 1) !== 0) {
    // Held for microseconds by another thread: wait a moment for its release instead of spinning hot.
    Atomics.wait(ints, at, 1, 1);
  }
}

function unlock(ints: Int32Array, at: number): void {
  Atomics.store(ints, at, 0);
  Atomics.notify(ints, at, 1);
}

export function sharedKeyCounters(memory: SharedCountersMemory): SharedKeyCounters {
  const ints = new Int32Array(memory.slots);
  const times = new Float64Array(memory.times);
  const slotCount = (ints.length - HEADER) / STRIDE;
  /** This thread's memory of where each key's slot is (checked under the slot's lock before each use). */
  const known = new Map<string, { base: number; hash: [number, number] }>();

  const holds = (base: number, hash: [number, number]) =>
    ints[base + USED] === 1 && ints[base + HASH_HIGH] === hash[0] && ints[base + HASH_LOW] === hash[1];

  /** The newest request time of a slot, or -Infinity. */
  const newest = (base: number) => {
    const count = ints[base + RING_COUNT]!;
    if (count === 0) return -Infinity;
    const size = ints[base + RING_SIZE]!;
    return times[ints[base + RING_START]! + ((ints[base + RING_NEXT]! - 1 + size) % size)]!;
  };

  /** Whether a slot may go to another key: nothing in flight and no request in the last minute. */
  const quiet = (base: number, nowMs: number) => ints[base + REQUESTS] === 0 && nowMs - newest(base) >= WINDOW_MS;

  /**
   * Whole seconds until a slot whose ring fits `ringSize` goes quiet (its newest request a minute old); 1 when
   * each such slot has a request in flight, whose end no clock tells.
   */
  function quietIn(ringSize: number, nowMs: number): number {
    let soonest = Infinity;
    for (let base = HEADER; base < ints.length; base += STRIDE) {
      if (ints[base + RING_CAPACITY]! < ringSize || ints[base + REQUESTS] !== 0) continue;
      soonest = Math.min(soonest, newest(base) + WINDOW_MS - nowMs);
    }
    return soonest === Infinity ? 1 : Math.max(1, Math.ceil(soonest / 1000));
  }

  /** Sets a locked slot up for a key, its ring empty. */
  function assign(base: number, hash: [number, number], ringSize: number): void {
    ints[base + RING_SIZE] = ringSize;
    ints[base + RING_NEXT] = 0;
    ints[base + RING_COUNT] = 0;
    ints[base + REQUESTS] = 0;
    ints[base + STREAMS] = 0;
    ints[base + HASH_HIGH] = hash[0];
    ints[base + HASH_LOW] = hash[1];
    Atomics.store(ints, base + USED, 1);
  }

  /** Finds or claims the key's slot under the table's lock; returns it locked. */
  function claim(key: string, hash: [number, number], ringSize: number, nowMs: number): number {
    lock(ints, TABLE_LOCK);
    try {
      const idle: number[] = [];
      for (let probe = 0; probe < slotCount; probe++) {
        const base = HEADER + (((hash[0] >>> 0) + probe) % slotCount) * STRIDE;
        if (holds(base, hash)) {
          lock(ints, base + LOCK);
          known.set(key, { base, hash });
          return base;
        }
        if (ints[base + USED] === 0) {
          // The first empty slot ends the key's probe: it was never placed past one (slots are never emptied).
          const start = Atomics.add(ints, ARENA_NEXT, ringSize);
          if (start + ringSize > times.length) break;
          lock(ints, base + LOCK);
          ints[base + RING_START] = start;
          ints[base + RING_CAPACITY] = ringSize;
          assign(base, hash, ringSize);
          known.set(key, { base, hash });
          return base;
        }
        if (ints[base + RING_CAPACITY]! >= ringSize && quiet(base, nowMs)) idle.push(base);
      }
      for (const base of idle) {
        lock(ints, base + LOCK);
        // Checked again under its lock: a thread may have used it since.
        if (quiet(base, nowMs)) {
          assign(base, hash, ringSize);
          known.set(key, { base, hash });
          return base;
        }
        unlock(ints, base + LOCK);
      }
      throw new LimitsTableFull(quietIn(ringSize, nowMs));
    } finally {
      unlock(ints, TABLE_LOCK);
    }
  }

  /** The key's slot, locked (claimed when new to the table; `ringSize`: its ring's size if claimed). */
  function locked(key: string, ringSize: number, nowMs: number): number {
    const seen = known.get(key);
    if (seen !== undefined) {
      lock(ints, seen.base + LOCK);
      if (holds(seen.base, seen.hash)) return seen.base;
      unlock(ints, seen.base + LOCK);
    }
    return claim(key, seen?.hash ?? keyHash(key), ringSize, nowMs);
  }

  return {
    take(key, limit, nowMs) {
      const base = locked(key, limit, nowMs);
      try {
        const start = ints[base + RING_START]!;
        const next = ints[base + RING_NEXT]!;
        const count = ints[base + RING_COUNT]!;
        // Threads' clocks interleave: a time is never before the key's newest, so the ring stays in order.
        const now = Math.max(nowMs, newest(base));
        // times[next] is the oldest of the last `limit` requests once the ring is full.
        if (count === limit && now - times[start + next]! < WINDOW_MS) {
          const oldest = times[start + next]!;
          return {
            allowed: false,
            remaining: 0,
            retryAfterSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)),
          };
        }
        times[start + next] = now;
        ints[base + RING_NEXT] = (next + 1) % limit;
        if (count < limit) ints[base + RING_COUNT] = count + 1;
        // Requests of the last minute, this one included.
        let recent = 0;
        for (let i = 0; i < Math.min(count + 1, limit); i++) if (now - times[start + i]! < WINDOW_MS) recent++;
        return { allowed: true, remaining: limit - recent, retryAfterSeconds: 0 };
      } finally {
        unlock(ints, base + LOCK);
      }
    },
    enter(key, ringSize, maxRequests, maxStreams, stream, nowMs) {
      const base = locked(key, ringSize, nowMs);
      try {
        if (ints[base + REQUESTS]! >= maxRequests || (stream && ints[base + STREAMS]! >= maxStreams)) return false;
        ints[base + REQUESTS] = ints[base + REQUESTS]! + 1;
        if (stream) ints[base + STREAMS] = ints[base + STREAMS]! + 1;
        return true;
      } finally {
        unlock(ints, base + LOCK);
      }
    },
    leave(key, stream) {
      const seen = known.get(key);
      if (seen === undefined) return;
      lock(ints, seen.base + LOCK);
      try {
        // A slot with a request in flight is never given to another key, so it is still this key's.
        if (!holds(seen.base, seen.hash)) return;
        ints[seen.base + REQUESTS] = Math.max(0, ints[seen.base + REQUESTS]! - 1);
        if (stream) ints[seen.base + STREAMS] = Math.max(0, ints[seen.base + STREAMS]! - 1);
      } finally {
        unlock(ints, seen.base + LOCK);
      }
    },
  };
}
