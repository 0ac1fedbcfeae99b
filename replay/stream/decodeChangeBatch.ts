// An off-chain batch as `tally publish` sends it (createLogPublisher.ts): msgpack of [number, table, key, value]
// entries, numbered one after another from the chunk's first to its last. Checked whole before a replica writes any
// of it: a batch that is not one is refused, never half applied.
import type { OffchainChange } from '../../engine/offchain/offchainWrites.js';
import { PROFILES_SOURCE_KEY, REPLICATED_TABLES, type ReplicatedTable } from '../../engine/offchain/offchainDigest.js';
import { decodeValue } from '../../engine/state/stateCodec.js';
import type { Chunk } from './logStream.js';

export function decodeChangeBatch(
  bytes: Uint8Array,
  chunk: Chunk,
  refuse: (detail: string) => Error,
): OffchainChange[] {
  let entries: unknown;
  try {
    entries = decodeValue(bytes);
  } catch (error) {
    throw refuse(`off-chain changes ${chunk.first}..${chunk.last} do not decode (${(error as Error).message})`);
  }
  if (!Array.isArray(entries) || entries.length !== chunk.last - chunk.first + 1)
    throw refuse(`off-chain changes ${chunk.first}..${chunk.last} are not ${chunk.last - chunk.first + 1} entries`);
  return entries.map((entry: unknown, i) => {
    const [seq, table, key, value] = Array.isArray(entry) ? entry : [];
    if (
      seq !== chunk.first + i ||
      !REPLICATED_TABLES.includes(table as ReplicatedTable) ||
      typeof key !== 'string' ||
      key.length === 0 ||
      (table === 'meta' && key !== PROFILES_SOURCE_KEY) ||
      !(value instanceof Uint8Array)
    )
      throw refuse(`off-chain change ${chunk.first + i} is not a [number, table, key, value] entry of tally's`);
    return { seq, table: table as ReplicatedTable, key, value: Buffer.from(value) };
  });
}
