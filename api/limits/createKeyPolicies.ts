// The limiters a key's requests go through (api/README.md, Limits): one rate limiter and one in-flight limiter per
// distinct set of limits (the global one, and each per-key override of config.json), with the texts of their
// 429s made once. A key's policy is found when its key is first checked, not per request.
import { inFlightError } from '../errorTexts.js';
import { createInFlightLimiter, type InFlightLimiter } from './createInFlightLimiter.js';
import { createRateLimiter, type RateLimiter } from './createRateLimiter.js';
import { limitsOfKey, type KeyLimits, type RateLimits } from './loadRateLimits.js';

export interface KeyPolicy {
  rate: RateLimiter;
  inFlight: InFlightLimiter;
  /** x-ratelimit-limit. */
  limitText: string;
  inFlightText: string;
}

/** A valid key's policy, or null when its requests are not limited. */
export function createKeyPolicies(rateLimits: RateLimits): (key: string) => KeyPolicy | null {
  const policies = new Map<KeyLimits, KeyPolicy>();
  return (key) => {
    const limits = limitsOfKey(rateLimits, key);
    if (limits === null) return null;
    let policy = policies.get(limits);
    if (policy === undefined) {
      policy = {
        rate: createRateLimiter({ perMinute: limits.perMinute }),
        inFlight: createInFlightLimiter({ requests: limits.inFlight, streams: limits.streams }),
        limitText: String(limits.perMinute),
        inFlightText: inFlightError(limits.inFlight, limits.streams),
      };
      policies.set(limits, policy);
    }
    return policy;
  };
}
