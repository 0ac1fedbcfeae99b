// Off-chain data kept beside the folded state, in its own LMDB environment so that rewind and replay, which
// rebuild the state from the log, never touch it: API keys (hashes only), market metadata, wallet profiles, and the
// log of their changes that replicas receive. Written through writeOffchain (offchainWrites.ts) alone.
import { open, type Database, type RootDatabase } from 'lmdb';
import { mkdirSync } from 'node:fs';
import { decodeValue, encodeValue } from '../state/stateCodec.js';
import type { MarketMetadata } from './marketMetadata.js';
import { PROFILES_SOURCE_KEY } from './offchainDigest.js';

export interface OffchainStore {
  env: RootDatabase;
  keys: Database<Buffer, string>;
  metadata: Database<Buffer, string>;
  profiles: Database<Buffer, string>;
  /** Counts the changes of keys, metadata and profiles, so a server knows when what it cached went stale. */
  meta: Database<Buffer, string>;
  /** Every change of the replicated tables, numbered from 1 (offchainWrites.ts). */
  changes: Database<Buffer, number>;
  close(): Promise<void>;
}

const REVISION_KEY = 'revision';

/** Called by writeOffchain inside the transaction that changes keys, metadata or profiles. */
export function bumpOffchainRevision(offchain: OffchainStore): void {
  const bytes = offchain.meta.getBinary(REVISION_KEY);
  offchain.meta.put(REVISION_KEY, encodeValue((bytes ? decodeValue<number>(bytes) : 0) + 1));
}

/** The revision as last committed; 0 for a store that predates it (a read-only open then has no meta database). */
export function readOffchainRevision(offchain: OffchainStore): number {
  const bytes = offchainRevisionBytes(offchain);
  return bytes ? decodeRevision(bytes) : 0;
}

/** The revision as stored, undefined when none is (a server decodes it only when it changed). */
export function offchainRevisionBytes(offchain: OffchainStore): Buffer | undefined {
  return (offchain.meta as OffchainStore['meta'] | undefined)?.getBinary(REVISION_KEY);
}

export function decodeRevision(bytes: Buffer): number {
  return decodeValue<number>(bytes);
}

export function readMarketMetadata(offchain: OffchainStore, conditionId: string): MarketMetadata | null {
  const bytes = offchain.metadata.getBinary(conditionId);
  return bytes ? decodeValue<MarketMetadata>(bytes) : null;
}

/** A wallet's profile (spec 2.9), as `tally profiles` stores it. */
export interface WalletProfile {
  name: string;
  pseudonym: string;
  image: string | null;
}

/** Whether a profile source was ever loaded (a store from before the marker: whether it holds profiles). */
export function profilesConfigured(offchain: OffchainStore): boolean {
  const meta = offchain.meta as OffchainStore['meta'] | undefined;
  return meta?.getBinary(PROFILES_SOURCE_KEY) !== undefined || offchain.profiles.getKeysCount({ limit: 1 }) > 0;
}

/** The wallet's profile, null when the loaded source has none for it. */
export function readWalletProfile(offchain: OffchainStore, wallet: string): WalletProfile | null {
  const bytes = offchain.profiles.getBinary(wallet);
  return bytes ? decodeValue<WalletProfile>(bytes) : null;
}

/** The wallets whose loaded profile has this name, in any letter case (a walk of every profile). */
export function walletsNamed(offchain: OffchainStore, name: string): string[] {
  const wanted = name.toLowerCase();
  const wallets: string[] = [];
  for (const { key, value } of offchain.profiles.getRange({})) {
    if (decodeValue<WalletProfile>(value as Buffer).name.toLowerCase() === wanted) wallets.push(String(key));
  }
  return wallets;
}

export function openOffchainStore(options: { dir: string; readOnly?: boolean }): OffchainStore {
  if (!options.readOnly) mkdirSync(options.dir, { recursive: true });
  const env = open({
    path: options.dir,
    maxDbs: 8,
    compression: false,
    readOnly: options.readOnly ?? false,
    mapSize: 16 * 1024 ** 3,
  });
  const binary = (name: string) => env.openDB<Buffer, string>({ name, encoding: 'binary' });
  return {
    env,
    keys: binary('keys'),
    metadata: binary('metadata'),
    profiles: binary('profiles'),
    meta: binary('meta'),
    changes: env.openDB<Buffer, number>({ name: 'changes', encoding: 'binary', keyEncoding: 'uint32' }),
    close: () => env.close(),
  };
}
