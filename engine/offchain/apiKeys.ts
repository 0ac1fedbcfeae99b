// API keys (spec 5): "svc_" + 48 hex. Only a SHA-256 of each key is stored; lookups hash the presented key,
// and the stored hash is compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { decodeValue, encodeValue } from '../state/stateCodec.js';
import type { OffchainStore } from './openOffchainStore.js';
import { writeOffchain } from './offchainWrites.js';

export const API_KEY_PATTERN = /^svc_[0-9a-f]{48}$/;

/** What `keys list` shows of a key: `svc_` and 6 hex. */
export const PREFIX_CHARS = 10;

interface KeyRecord {
  hash: string;
  prefix: string;
  createdAt: number;
  revokedAt: number;
}

function hashKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

export async function createApiKey(store: OffchainStore, now: number): Promise<string> {
  const key = 'svc_' + randomBytes(24).toString('hex');
  await addApiKey(store, key, now);
  return key;
}

/**
 * Stores a key made elsewhere (`tally keys add`: the same key on servers that share no publisher); false when
 * this store holds it already, revoked or not.
 */
export async function addApiKey(store: OffchainStore, key: string, now: number): Promise<boolean> {
  const hash = hashKey(key).toString('hex');
  const record: KeyRecord = { hash, prefix: key.slice(0, PREFIX_CHARS), createdAt: now, revokedAt: 0 };
  // The revision tells a running server that its checked keys are stale.
  return writeOffchain(store, (writes) => {
    if (store.keys.getBinary(hash)) return false;
    return writes.put('keys', hash, encodeValue(record));
  });
}

/**
 * Revokes a key, given whole (`svc_` and 48 hex) or as the stored id findApiKeysByPrefix answers; answers the
 * key's prefix, or null when it was never issued.
 */
export async function revokeApiKey(store: OffchainStore, key: string, now: number): Promise<string | null> {
  const id = API_KEY_PATTERN.test(key) ? hashKey(key).toString('hex') : key;
  const bytes = store.keys.getBinary(id);
  if (!bytes) return null;
  const record = decodeValue<KeyRecord>(bytes);
  if (record.revokedAt === 0) record.revokedAt = now;
  await writeOffchain(store, (writes) => writes.put('keys', id, encodeValue(record)));
  return record.prefix;
}

/**
 * The ids of the keys whose kept prefix (`svc_` and 6 hex) starts with `prefix`; 'too long' for a prefix longer
 * than what is kept (only a hash of the rest exists).
 */
export function findApiKeysByPrefix(store: OffchainStore, prefix: string): string[] | 'too long' {
  if (prefix.length > PREFIX_CHARS) return 'too long';
  const ids: string[] = [];
  for (const { key, value } of store.keys.getRange({})) {
    if (decodeValue<KeyRecord>(value).prefix.startsWith(prefix)) ids.push(key);
  }
  return ids;
}

export function listApiKeys(store: OffchainStore): Array<{ prefix: string; createdAt: number; revokedAt: number }> {
  return [...store.keys.getRange({})].map(({ value }) => {
    const record = decodeValue<KeyRecord>(value);
    return { prefix: record.prefix, createdAt: record.createdAt, revokedAt: record.revokedAt };
  });
}

/** True for an issued, unrevoked key. Malformed keys are refused before any lookup. */
export function isValidApiKey(store: OffchainStore, key: string): boolean {
  if (!API_KEY_PATTERN.test(key)) return false;
  const hash = hashKey(key);
  const bytes = store.keys.getBinary(hash.toString('hex'));
  if (!bytes) return false;
  const record = decodeValue<KeyRecord>(bytes);
  return timingSafeEqual(Buffer.from(record.hash, 'hex'), hash) && record.revokedAt === 0;
}
