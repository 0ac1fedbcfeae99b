// The LMDB state: one environment, a named database per kind of record, values as binary bytes from stateCodec.
// The fold's main thread is the only writer; workers and the API read the same memory-mapped file. A folding
// process flushes its commits once, when it closes the store (unflushedMarker says why that is safe). A state is
// only ever replaced whole, by a rewind, never written over under a map (stateReplacement.ts).
import { assert, AssertionFailure } from '../assert.js';
import { open, type Database, type RootDatabase } from 'lmdb';
import { mkdirSync } from 'node:fs';
import { STATE_DBS, type StateDbName } from './stateDbNames.js';
import { entryEnd, entryKeyAt, entryValueAt } from './blockChecksum.js';
import { isStateReplaced } from './stateReplacement.js';
import { clearUnflushed, currentBootId, markUnflushed } from './unflushedMarker.js';
import { decodePosition } from './stateCodec.js';
import { readFirstNumber } from './msgpackNumbers.js';
import type { Position } from '../reducers/position.js';

/**
 * Databases keyed by raw bytes: ids, not hex text. stateKeys builds their keys as latin1 strings, which must
 * become bytes before LMDB sees them (storedKey): lmdb-js reads a string key of such a database as no key at all.
 */
const BINARY_KEY_DBS = [
  'positions',
  'backfillPositions',
  'marketWallets',
  'fills',
  'walletFills',
  'marketFills',
  'walletFillEpochs',
  'marketFillEpochs',
  'walletMoves',
  'blocks',
  'ids',
  'idsByValue',
  'boardResults0',
  'boardResults1',
  'boardRows0',
  'boardRows1',
  'tagRuns',
] as const;
type BinaryKeyDb = (typeof BINARY_KEY_DBS)[number];
const isBinaryKeyDb = (db: StateDbName): db is BinaryKeyDb => (BINARY_KEY_DBS as readonly string[]).includes(db);

/** A fold write's key as its database takes it. */
export function storedKey(db: StateDbName, key: string): string | Buffer {
  // stateKeys builds every key with a character at least; LMDB refuses an empty one.
  assert(key.length > 0, 'a state key is not empty');
  return isBinaryKeyDb(db) ? Buffer.from(key, 'latin1') : key;
}

/** Puts a fold write (queued in a batch, immediate in a transactionSync). */
export function putStateWrite(store: StateStore, db: StateDbName, key: string, value: Buffer): void {
  // Records, rows, lists and id values: only an index key (putEntry) has an empty value.
  assert(value.length > 0, 'a fold write has a value');
  void (store.dbs[db] as Database<Buffer, string | Buffer>).put(storedKey(db, key), value);
}

/** Puts a write given as an entry (blockChecksum.ts) of a database keyed by bytes. */
export function putEntry(store: StateStore, db: BinaryKeyDb, bytes: Buffer, at: number): void {
  const valueAt = entryValueAt(bytes, at);
  // The workers' entries: positions and market wallet index keys, 8 bytes each (positionKey, marketWalletKey).
  assert(valueAt - entryKeyAt(bytes, at) === 8, "an entry's key is a position's or an index key");
  void store.dbs[db].put(bytes.subarray(entryKeyAt(bytes, at), valueAt), bytes.subarray(valueAt, entryEnd(bytes, at)));
}

/** A held position (shares above zero) decoded from a store's shared buffer, or null. */
function decodeHeldPosition(bytes: Uint8Array, size: number): Position | null {
  // A stored position is at least its array's header and one number.
  assert(size > 1, 'a held position is read from a stored value');
  // The stored position's first number is its shares (stateCodec.ts).
  return readFirstNumber(bytes, size) > 0 ? decodePosition(bytes, size) : null;
}

const HELD_POSITION_ENCODER = {
  decode: decodeHeldPosition,
  encode(): never {
    throw new AssertionFailure('state: heldPositions is a read view of positions, never written through');
  },
};

/** Each database typed by its keys, so a string key never reaches a binary-keyed one. */
export type StateDbs = { [K in StateDbName]: Database<Buffer, K extends BinaryKeyDb ? Buffer : string> };

export interface StateStore {
  env: RootDatabase;
  dbs: StateDbs;
  /**
   * The positions database read through a decoder of its own, for reads only: each value decoded straight from the
   * store's shared buffer (no copy of it), a position holding no shares as null, left undecoded past its first
   * number (an open-positions answer reads a wallet's held positions among its hundreds).
   */
  heldPositions: Database<Position | null, Buffer>;
  /** How many times the environment has been opened: what a reader caches about ids holds for one opening. */
  opened: number;
  close(): Promise<void>;
  /**
   * Closes and reopens the environment in place (same object). Once every thread has closed it the map is
   * released, and with it the file pages it made resident, which otherwise grow with the state's size.
   * `readAhead`: until the next reopen the map reads ahead whatever the store's own pattern (a scan of a whole
   * table, its pages spread over the file).
   */
  reopen(options?: { readAhead?: boolean }): Promise<void>;
  /**
   * When a rewind has replaced the mapped state by another in the directory (stateReplacement.ts), opens that one
   * in place (same object) and answers true; the old environment closes once the reads in flight end.
   */
  followReplacement(): boolean;
}

export function openStateStore(options: {
  dir: string;
  readOnly?: boolean;
  /** A folding process: commits are flushed once, when the store is closed (see unflushedMarker). */
  flushOnClose?: boolean;
  /**
   * Reads at random (the fold's): LMDB's MDB_NORDAHEAD, so a page fault maps that page alone. Otherwise the kernel
   * maps the cached pages around it (the whole large folio the file sits in): a scan of a table whose pages lie all
   * over the file then makes most of the file resident (the hand-off's read of 128 MiB of the working table took the
   * map from 49 to 1,821 MiB at 10M fills), and every commit's pages spread the map the same way.
   */
  randomReads?: boolean;
}): StateStore {
  // flushOnClose is a folding process's: it writes, so its commits have something to flush.
  assert(!(options.flushOnClose && options.readOnly), 'a store flushed on close is opened to write');
  if (!options.readOnly) mkdirSync(options.dir, { recursive: true });
  const boot = options.flushOnClose && !options.readOnly ? currentBootId() : null;
  if (boot !== null && markUnflushed(options.dir, boot)) {
    process.stderr.write(
      `tally: ${options.dir} was being folded when the machine went down: it is folded again from the log\n`,
    );
  }
  const openEnv = (readAhead: boolean) =>
    open({
      path: options.dir,
      maxDbs: STATE_DBS.length + 2,
      compression: false,
      readOnly: options.readOnly ?? false,
      mapSize: 64 * 1024 ** 3,
      noSync: boot !== null,
      // lmdb-js takes noReadAhead (MDB_NORDAHEAD) but its typings leave it out.
      ...({ noReadAhead: !readAhead && (options.randomReads ?? false) } as object),
    });
  const store = { dbs: {} as StateDbs, opened: 0 } as StateStore;
  const attach = (readAhead = false) => {
    store.env = openEnv(readAhead);
    store.opened++;
    const dbs: Record<string, Database<Buffer, string | Buffer>> = store.dbs;
    for (const name of STATE_DBS) {
      dbs[name] = store.env.openDB<Buffer, string | Buffer>({
        name,
        encoding: 'binary',
        ...(isBinaryKeyDb(name) ? { keyEncoding: 'binary' as const } : {}),
      });
    }
    // lmdb-js hands a decoder that copies what it keeps the shared buffer itself, with the value's size. (Its
    // typings list `encoder` among the root options only.)
    const heldOptions = { name: 'positions', keyEncoding: 'binary' as const, encoder: HELD_POSITION_ENCODER };
    store.heldPositions = store.env.openDB<Position | null, Buffer>(heldOptions);
  };
  attach();
  store.close = async () => {
    if (boot !== null) {
      // RootDatabase.sync (mdb_env_sync) is missing from lmdb's type declarations.
      const env = store.env as unknown as { sync(done: (error: unknown) => void): void };
      await new Promise<void>((resolve, reject) => env.sync((error) => (error ? reject(error) : resolve())));
      clearUnflushed(options.dir);
    }
    await store.env.close();
  };
  store.reopen = async (reopenOptions = {}) => {
    await store.env.close();
    attach(reopenOptions.readAhead ?? false);
  };
  store.followReplacement = () => {
    if (!isStateReplaced(store.dbs.meta, options.dir)) return false;
    const replaced = store.env;
    attach();
    // lmdb-js closes it once its pending reads are done; a scan still open over it (a stream) then ends with an
    // error rather than reading a freed map. Nothing is left to do if closing fails.
    replaced.close().catch(() => undefined);
    return true;
  };
  return store;
}
