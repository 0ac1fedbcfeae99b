// The bearer key check of every request (spec 5): a key found valid is remembered until the off-chain revision
// moves (creating or revoking any key moves it), so a busy client costs no hashing and no lookup per request,
// and a revoked key is still refused from the next request on. It answers the key's grant, made once per key
// and revision: its id for the per-key limits (a hash, never the raw key) and what the server derives from it.
import { createHash } from 'node:crypto';
import { isValidApiKey } from '../engine/offchain/apiKeys.js';
import type { OffchainStore } from '../engine/offchain/openOffchainStore.js';
import { MAX_REMEMBERED_KEYS } from './apiLimits.js';

/** The key's grant, or null for a missing, malformed, unknown or revoked key. */
export type KeyCheck<Grant> = (key: string, offchainRevision: number) => Grant | null;

export function createKeyCheck<Grant>(
  offchain: OffchainStore,
  grant: (key: string, id: string) => Grant,
): KeyCheck<Grant> {
  let revision = -1;
  const valid = new Map<string, Grant>();
  return (key, offchainRevision) => {
    if (offchainRevision !== revision) {
      revision = offchainRevision;
      valid.clear();
    }
    const remembered = valid.get(key);
    if (remembered !== undefined) return remembered;
    if (!isValidApiKey(offchain, key)) return null;
    const granted = grant(key, createHash('sha256').update(key).digest('base64'));
    if (valid.size >= MAX_REMEMBERED_KEYS) valid.clear();
    valid.set(key, granted);
    return granted;
  };
}
