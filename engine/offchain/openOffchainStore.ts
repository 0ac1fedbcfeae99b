// Off-chain data kept beside the folded state, in its own LMDB environment so that rewind and replay, which
// rebuild the state from the log, never touch it: API keys (hashes only), market metadata, wallet profiles.
import { open, type Database, type RootDatabase } from 'lmdb';
import { mkdirSync } from 'node:fs';

export interface OffchainStore {
  env: RootDatabase;
  keys: Database<Buffer, string>;
  metadata: Database<Buffer, string>;
  profiles: Database<Buffer, string>;
  close(): Promise<void>;
}

export function openOffchainStore(options: { dir: string; readOnly?: boolean }): OffchainStore {
  if (!options.readOnly) mkdirSync(options.dir, { recursive: true });
  const env = open({ path: options.dir, maxDbs: 4, compression: false, readOnly: options.readOnly ?? false, mapSize: 16 * 1024 ** 3 });
  const binary = (name: string) => env.openDB<Buffer, string>({ name, encoding: 'binary' });
  return { env, keys: binary('keys'), metadata: binary('metadata'), profiles: binary('profiles'), close: () => env.close() };
}
