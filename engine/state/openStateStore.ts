// The LMDB state: one environment, a named database per kind of record, values as binary bytes from stateCodec.
// The fold's main thread is the only writer; workers and the API read the same memory-mapped file.
import { open, type Database, type RootDatabase } from 'lmdb';
import { mkdirSync } from 'node:fs';

export const STATE_DBS = [
  'meta', 'positions', 'marketWallets', 'markets', 'marketMarks', 'tokens', 'negRiskEvents', 'pools', 'feedAnswers', 'marketTrades',
  'walletTrades', 'blocks',
] as const;
export type StateDbName = (typeof STATE_DBS)[number];

export interface StateStore {
  env: RootDatabase;
  dbs: Record<StateDbName, Database<Buffer, string>>;
  close(): Promise<void>;
  /**
   * Closes and reopens the environment in place (same object). Once every thread has closed it the map is
   * released, and with it the file pages it made resident, which otherwise grow with the state's size.
   */
  reopen(): Promise<void>;
}

export function openStateStore(options: { dir: string; readOnly?: boolean }): StateStore {
  if (!options.readOnly) mkdirSync(options.dir, { recursive: true });
  const openEnv = () => open({
    path: options.dir,
    maxDbs: STATE_DBS.length + 2,
    compression: false,
    readOnly: options.readOnly ?? false,
    mapSize: 64 * 1024 ** 3,
  });
  const store = { dbs: {} as Record<StateDbName, Database<Buffer, string>> } as StateStore;
  const attach = () => {
    store.env = openEnv();
    for (const name of STATE_DBS) store.dbs[name] = store.env.openDB<Buffer, string>({ name, encoding: 'binary' });
  };
  attach();
  store.close = () => store.env.close();
  store.reopen = async () => {
    await store.env.close();
    attach();
  };
  return store;
}
