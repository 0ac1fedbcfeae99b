// The limits a key's requests go through (api/README.md, Limits): its figures (the global ones, or a per-key
// override of config.json), counted in the counters every serving thread shares (sharedKeyCounters.ts), with the
// texts of their 429s made once. A key's policy is found when its key is first checked, not per request.
import { inFlightError } from '../errorTexts.js';
import { limitsOfKey, type KeyLimits, type RateLimits } from './loadRateLimits.js';
import {
  createSharedCountersMemory,
  sharedKeyCounters,
  type RateDecision,
  type SharedCountersMemory,
} from './sharedKeyCounters.js';

export interface KeyPolicy {
  limits: KeyLimits;
  /** Takes an in-flight slot (the answer gives it back with leave), or false at the key's limits. */
  enter(keyId: string, stream: boolean, nowMs: number): boolean;
  leave(keyId: string, stream: boolean): void;
  /** Counts a request against the key's minute. */
  take(keyId: string, nowMs: number): RateDecision;
  /** x-ratelimit-limit. */
  limitText: string;
  inFlightText: string;
}

/**
 * A valid key's policy, or null when its requests are not limited. `memory`: the counters' shared memory, the
 * same for every thread serving the port (one of its own by default).
 */
export function createKeyPolicies(
  rateLimits: RateLimits,
  memory: SharedCountersMemory = createSharedCountersMemory(),
): (key: string) => KeyPolicy | null {
  const counters = sharedKeyCounters(memory);
  const policies = new Map<KeyLimits, KeyPolicy>();
  return (key) => {
    const limits = limitsOfKey(rateLimits, key);
    if (limits === null) return null;
    let policy = policies.get(limits);
    if (policy === undefined) {
      const { perMinute, inFlight, streams } = limits;
      policy = {
        limits,
        enter: (keyId, stream, nowMs) => counters.enter(keyId, perMinute, inFlight, streams, stream, nowMs),
        leave: (keyId, stream) => counters.leave(keyId, stream),
        take: (keyId, nowMs) => counters.take(keyId, perMinute, nowMs),
        limitText: String(perMinute),
        inFlightText: inFlightError(inFlight, streams),
      };
      policies.set(limits, policy);
    }
    return policy;
  };
}
