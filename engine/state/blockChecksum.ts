// The per-block state checksum (DESIGN.md section 1): sha256 of the previous block's checksum and every state
// key the block touched with its final value, in key order. It depends on neither batch size nor worker count,
// so `tally verify` can refold with any settings and name the first block that differs.
import { createHash } from 'node:crypto';
import { compareWrites, type StateWrite } from './stateWrite.js';

export const GENESIS_CHECKSUM = '0'.repeat(64);

export function blockChecksum(previous: string, block: number, writes: StateWrite[]): string {
  writes.sort(compareWrites);
  const hash = createHash('sha256');
  hash.update(previous);
  hash.update(String(block));
  const header = Buffer.alloc(6);
  for (const write of writes) {
    hash.update(write.db);
    header.writeUInt16BE(write.key.length, 0);
    header.writeUInt32BE(write.value.length, 2);
    hash.update(header);
    hash.update(write.key);
    hash.update(write.value);
  }
  return hash.digest('hex');
}
