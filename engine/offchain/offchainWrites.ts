// The one way the off-chain store is written (keys, metadata, profiles and their source marker): each put that
// changes an entry moves its group's content digest (offchainDigest.ts) and is appended to the store's change log,
// numbered from 1, in the same transaction; the revision moves once a transaction that changed anything. The log is
// what `tally publish` sends to replicas (replay/README.md, Replicas), the digests what /v1/health compares.
import { assert } from '../assert.js';
import { decodeValue, encodeValue } from '../state/stateCodec.js';
import {
  decodeDigests,
  digestAfterPut,
  emptyDigests,
  encodeDigests,
  PROFILES_SOURCE_KEY,
  REPLICATED_TABLES,
  type OffchainDigests,
  type ReplicatedTable,
} from './offchainDigest.js';
import { bumpOffchainRevision, type OffchainStore } from './openOffchainStore.js';

const DIGESTS_KEY = 'contentDigests';

export interface OffchainWrites {
  /** Puts `value` under `key` of `table`; false when the entry held these bytes already (nothing changes). */
  put(table: ReplicatedTable, key: string, value: Buffer): boolean;
}

/** One entry of the change log: what a put wrote. */
export interface OffchainChange {
  seq: number;
  table: ReplicatedTable;
  key: string;
  value: Buffer;
}

/** Runs `write` in one transaction; its puts change the tables, the digests and the change log together. */
export function writeOffchain<T>(offchain: OffchainStore, write: (writes: OffchainWrites) => T): Promise<T> {
  return offchain.env.transaction(() => {
    // A store from before the change log: what it holds is logged first, so a publisher sends that too.
    const stored = offchainDigestBytes(offchain);
    const held = stored === undefined ? logHeld(offchain) : null;
    const digests = held?.digests ?? decodeOffchainDigests(stored!);
    let seq = held?.seq ?? lastChangeSeq(offchain);
    let changed = false;
    const result = write({
      put(table, key, value) {
        assert(table !== 'meta' || key === PROFILES_SOURCE_KEY, `off-chain meta key ${key} does not travel`);
        const before = offchain[table].getBinary(key);
        if (before?.equals(value)) return false;
        digestAfterPut(digests, table, key, before, value);
        offchain[table].put(key, value);
        offchain.changes.put(++seq, encodeValue([table, key, value]));
        changed = true;
        return true;
      },
    });
    if (changed || held !== null) offchain.meta.put(DIGESTS_KEY, encodeValue(encodeDigests(digests)));
    if (changed) bumpOffchainRevision(offchain);
    return result;
  });
}

/** Logs every entry held as a change, in a transaction; the digests of them and the last number. */
function logHeld(offchain: OffchainStore): { digests: OffchainDigests; seq: number } {
  const digests = emptyDigests();
  let seq = lastChangeSeq(offchain);
  for (const { table, key, value } of replicatedEntries(offchain)) {
    digestAfterPut(digests, table, key, undefined, value);
    offchain.changes.put(++seq, encodeValue([table, key, value]));
  }
  return { digests, seq };
}

/** The number of the last change logged, 0 before the first. */
export function lastChangeSeq(offchain: OffchainStore): number {
  for (const key of offchain.changes.getKeys({ reverse: true, limit: 1 })) return key;
  return 0;
}

/** The changes after `seq`, oldest first, at most `limit`. */
export function readChangesAfter(offchain: OffchainStore, seq: number, limit: number): OffchainChange[] {
  const changes: OffchainChange[] = [];
  for (const { key, value } of offchain.changes.getRange({ start: seq + 1, limit })) {
    const [table, entryKey, bytes] = decodeValue<[ReplicatedTable, string, Uint8Array]>(value);
    changes.push({ seq: key, table, key: entryKey, value: Buffer.from(bytes) });
  }
  return changes;
}

/** The content digests as stored; a store written before they were kept has them computed from its tables. */
export function readOffchainDigests(offchain: OffchainStore): OffchainDigests {
  const bytes = offchain.meta.getBinary(DIGESTS_KEY);
  return bytes ? decodeDigests(decodeValue(bytes)) : computeOffchainDigests(offchain);
}

/** The stored digests' bytes, undefined when none are stored (a reader decodes them only when they changed). */
export function offchainDigestBytes(offchain: OffchainStore): Buffer | undefined {
  return offchain.meta.getBinary(DIGESTS_KEY);
}

export function decodeOffchainDigests(bytes: Buffer): OffchainDigests {
  return decodeDigests(decodeValue(bytes));
}

/** Every entry the replicated tables hold, table by table in key order. */
export function* replicatedEntries(
  offchain: OffchainStore,
): Generator<{ table: ReplicatedTable; key: string; value: Buffer }> {
  for (const table of REPLICATED_TABLES) {
    for (const { key, value } of offchain[table].getRange({})) {
      if (table !== 'meta' || key === PROFILES_SOURCE_KEY) yield { table, key, value };
    }
  }
}

/** The digests from every entry the tables hold: what the kept ones must equal. */
export function computeOffchainDigests(offchain: OffchainStore): OffchainDigests {
  const digests = emptyDigests();
  for (const { table, key, value } of replicatedEntries(offchain))
    digestAfterPut(digests, table, key, undefined, value);
  return digests;
}

/** A store written before the change log was kept logs what it holds, once (a publisher sends it then). */
export function logHeldEntries(offchain: OffchainStore): Promise<void> {
  return writeOffchain(offchain, () => undefined);
}
