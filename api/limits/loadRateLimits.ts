// The per-key limits (api/README.md, Limits) from the data directory's config.json, read when the server starts:
//   "rateLimits": { "perMinute": 600, "inFlight": 4, "streams": 2, "keys": { "svc_1a2b3c": { "perMinute": 6000 } } }
// Absent fields keep spec 8's figures; `false` in place of the object (or of a key's entry) lifts every limit
// (or that key's). Keys are named by a prefix, the one `tally keys list` shows (only hashes of keys are stored);
// the longest prefix a key starts with gives its limits, each field it leaves out taken from the global ones.
import { readConfigFile } from '../../engine/foldOptions.js';
import { InputError } from '../../engine/inputError.js';
import { MAX_IN_FLIGHT, MAX_PER_MINUTE, SPEC_IN_FLIGHT, SPEC_PER_MINUTE, SPEC_STREAMS } from '../apiLimits.js';

export interface KeyLimits {
  /** Requests in any 60 seconds. */
  perMinute: number;
  /** Requests in flight at once, streams included. */
  inFlight: number;
  /** Bulk streams in flight at once. */
  streams: number;
}

/** null: no limit. */
export interface RateLimits {
  limits: KeyLimits | null;
  /** Longest prefix first. */
  keys: Array<{ prefix: string; limits: KeyLimits | null }>;
}

export const SPEC_KEY_LIMITS: KeyLimits = {
  perMinute: SPEC_PER_MINUTE,
  inFlight: SPEC_IN_FLIGHT,
  streams: SPEC_STREAMS,
};
export const DEFAULT_RATE_LIMITS: RateLimits = { limits: SPEC_KEY_LIMITS, keys: [] };

const KEY_PREFIX = /^svc_[0-9a-f]{1,48}$/;

const FIELDS = ['perMinute', 'inFlight', 'streams'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An entry's limits (null for `false`), each field it leaves out taken from `base`. */
function limitsOf(value: unknown, base: KeyLimits, where: string, file: string): KeyLimits | null {
  if (value === false) return null;
  if (!isObject(value)) throw new InputError(file, 0, `${where} must be an object or false`);
  const known: readonly string[] = where === 'rateLimits' ? [...FIELDS, 'keys'] : FIELDS;
  const unknown = Object.keys(value).find((name) => !known.includes(name));
  if (unknown !== undefined) throw new InputError(file, 0, `${where}: unknown field ${unknown} (${known.join(', ')})`);
  const limits = { ...base };
  for (const name of FIELDS) {
    const given = value[name] ?? base[name];
    const max = name === 'perMinute' ? MAX_PER_MINUTE : MAX_IN_FLIGHT;
    if (typeof given !== 'number' || !Number.isInteger(given) || given < 1 || given > max) {
      throw new InputError(file, 0, `${where}.${name} must be an integer from 1 to ${max}`);
    }
    limits[name] = given;
  }
  if (limits.streams > limits.inFlight) {
    throw new InputError(file, 0, `${where}.streams must not exceed its inFlight (${limits.inFlight})`);
  }
  return limits;
}

export function loadRateLimits(configPath: string): RateLimits {
  const given = readConfigFile(configPath)?.rateLimits;
  if (given === undefined) return DEFAULT_RATE_LIMITS;
  const limits = limitsOf(given, SPEC_KEY_LIMITS, 'rateLimits', configPath);
  const keysGiven = isObject(given) ? given.keys : undefined;
  if (keysGiven === undefined) return { limits, keys: [] };
  if (!isObject(keysGiven)) throw new InputError(configPath, 0, 'rateLimits.keys must be an object of key prefixes');
  const keys = Object.entries(keysGiven).map(([prefix, value]) => {
    if (!KEY_PREFIX.test(prefix)) {
      throw new InputError(
        configPath,
        0,
        `rateLimits.keys: ${prefix} is not a key prefix (svc_ and hex, as tally keys list shows)`,
      );
    }
    return { prefix, limits: limitsOf(value, limits ?? SPEC_KEY_LIMITS, `rateLimits.keys.${prefix}`, configPath) };
  });
  return { limits, keys: keys.sort((a, b) => b.prefix.length - a.prefix.length) };
}

/** The limits of a key (a valid one: `svc_` and 48 hex). */
export function limitsOfKey(rateLimits: RateLimits, key: string): KeyLimits | null {
  for (const entry of rateLimits.keys) if (key.startsWith(entry.prefix)) return entry.limits;
  return rateLimits.limits;
}
