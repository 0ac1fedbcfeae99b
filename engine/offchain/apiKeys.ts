// API keys (spec 5): "svc_" + 48 hex. Only a SHA-256 of each key is stored; lookups hash the presented key,
// and the stored hash is compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { decodeValue, encodeValue } from '../state/stateCodec.js';
import { bumpOffchainRevision, type OffchainStore } from './openOffchainStore.js';

export const API_KEY_PATTERN = /^svc_[0-9a-f]{48}$/;

interface KeyRecord { hash: string; prefix: string; createdAt: number; revokedAt: number }

function hashKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

export async function createApiKey(store: OffchainStore, now: number): Promise<string> {
  const key = 'svc_' + randomBytes(24).toString('hex');
  const hash = hashKey(key);
  const record: KeyRecord = { hash: hash.toString('hex'), prefix: key.slice(0, 10), createdAt: now, revokedAt: 0 };
  // The revision tells a running server that its checked keys are stale.
  await store.env.transaction(() => {
    store.keys.put(hash.toString('hex'), encodeValue(record));
    bumpOffchainRevision(store);
  });
  return key;
}

/** Revokes the key; false when it was never issued. */
export async function revokeApiKey(store: OffchainStore, key: string, now: number): Promise<boolean> {
  const id = hashKey(key).toString('hex');
  const bytes = store.keys.getBinary(id);
  if (!bytes) return false;
  const record = decodeValue<KeyRecord>(bytes);
  if (record.revokedAt === 0) record.revokedAt = now;
  await store.env.transaction(() => {
    store.keys.put(id, encodeValue(record));
    bumpOffchainRevision(store);
  });
  return true;
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
