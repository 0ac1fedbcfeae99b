// The per-block state checksum (engine/README.md, Pipeline): sha256 of the previous block's checksum and every state
// key the block touched with its final value, in key order. It depends on neither batch size nor worker count,
// so `tally verify` can refold with any settings and name the first block that differs.
import { createHash } from 'node:crypto';
import { compareWrites, type StateWrite } from './stateWrite.js';

export const GENESIS_CHECKSUM = '0'.repeat(64);

// The block's bytes are gathered here and hashed in one update: an update per write costs more in native
// calls than the hashing itself.
let scratch = Buffer.alloc(1 << 20);

export function blockChecksum(previous: string, block: number, writes: StateWrite[]): string {
  writes.sort(compareWrites);
  let size = previous.length + 16;
  for (const write of writes) size += 7 + write.db.length + write.key.length + write.value.length;
  if (size > scratch.length) scratch = Buffer.alloc(Math.max(size, scratch.length * 2));
  let at = scratch.write(previous, 0, 'latin1');
  at += scratch.write(String(block), at, 'latin1');
  for (const write of writes) {
    // Lengths, database and key (all ASCII), then the value.
    scratch.writeUInt16BE(write.key.length, at);
    scratch.writeUInt32BE(write.value.length, at + 2);
    const length = scratch.write(write.db, at + 7, 'latin1');
    scratch[at + 6] = length;
    at += 7 + length;
    at += scratch.write(write.key, at, 'latin1');
    at += write.value.copy(scratch, at);
  }
  return createHash('sha256').update(scratch.subarray(0, at)).digest('hex');
}
