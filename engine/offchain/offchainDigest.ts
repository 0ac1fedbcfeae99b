// A digest of what the off-chain store holds, kept as the store changes: for each group (API keys, market metadata,
// profiles) the sum, modulo 2^256, of a SHA-256 of every entry (its table, key and value). A sum does not depend on
// the order entries were written in, and a put changes it by the new entry's hash less the old one's, so two stores
// holding the same entries have the same digests however they came to hold them (a replica's, the publisher's), at
// the cost of one hash a write.
import { createHash } from 'node:crypto';

/** The tables a store replicates, each into its group's digest; `meta` holds only the profiles' source marker. */
export const REPLICATED_TABLES = ['keys', 'metadata', 'profiles', 'meta'] as const;
export type ReplicatedTable = (typeof REPLICATED_TABLES)[number];

/** The one key of `meta` that travels: whether (and from where) profiles were loaded. */
export const PROFILES_SOURCE_KEY = 'profilesSource';

export interface OffchainDigests {
  keys: bigint;
  metadata: bigint;
  profiles: bigint;
}

export type DigestGroup = keyof OffchainDigests;

const MODULUS = 1n << 256n;

export const emptyDigests = (): OffchainDigests => ({ keys: 0n, metadata: 0n, profiles: 0n });

export function digestGroupOf(table: ReplicatedTable): DigestGroup {
  return table === 'meta' ? 'profiles' : table;
}

/** The entry's hash: table, key and value, each length-prefixed so no two entries read alike. */
export function entryHash(table: ReplicatedTable, key: string, value: Uint8Array): bigint {
  const hash = createHash('sha256');
  const head = Buffer.alloc(8);
  head.writeUInt32BE(Buffer.byteLength(key), 0);
  head.writeUInt32BE(value.length, 4);
  hash.update(table).update(head).update(key).update(value);
  return BigInt(`0x${hash.digest('hex')}`);
}

/** The digests after `key` of `table` went from `before` (undefined: absent) to `after`. */
export function digestAfterPut(
  digests: OffchainDigests,
  table: ReplicatedTable,
  key: string,
  before: Uint8Array | undefined,
  after: Uint8Array,
): void {
  const group = digestGroupOf(table);
  let sum = digests[group] + entryHash(table, key, after);
  if (before !== undefined) sum -= entryHash(table, key, before);
  digests[group] = ((sum % MODULUS) + MODULUS) % MODULUS;
}

export const digestHex = (digest: bigint): string => digest.toString(16).padStart(64, '0');

/** Stored form: hex texts, so a reader decodes them without bigints in msgpack. */
export function encodeDigests(digests: OffchainDigests): Record<DigestGroup, string> {
  return {
    keys: digestHex(digests.keys),
    metadata: digestHex(digests.metadata),
    profiles: digestHex(digests.profiles),
  };
}

export function decodeDigests(stored: Record<DigestGroup, string>): OffchainDigests {
  return {
    keys: BigInt(`0x${stored.keys}`),
    metadata: BigInt(`0x${stored.metadata}`),
    profiles: BigInt(`0x${stored.profiles}`),
  };
}
