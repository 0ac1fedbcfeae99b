// The per-block state checksum (DESIGN.md section 1): sha256 of the previous block's checksum and every state
// key the block touched with its final value, in key order. It depends on neither batch size nor worker count,
// so `tally verify` can refold with any settings and name the first block that differs.
import { createHash } from 'node:crypto';
import { compareWrites, type StateWrite } from './stateWrite.js';

export const GENESIS_CHECKSUM = '0'.repeat(64);

const scratch = Buffer.alloc(4096);

export function blockChecksum(previous: string, block: number, writes: StateWrite[]): string {
  writes.sort(compareWrites);
  const hash = createHash('sha256');
  hash.update(previous);
  hash.update(String(block));
  for (const write of writes) {
    // One update for the database, lengths and key (all ASCII), one for the value.
    const length = scratch.write(write.db, 7, 'latin1');
    scratch.writeUInt16BE(write.key.length, 0);
    scratch.writeUInt32BE(write.value.length, 2);
    scratch[6] = length;
    const end = 7 + length + scratch.write(write.key, 7 + length, 'latin1');
    hash.update(scratch.subarray(0, end));
    hash.update(write.value);
  }
  return hash.digest('hex');
}
