// A chain log as a source delivers it (capture line or eth_getLogs result), as a view: every hex field is a run
// of lowercase digits in one buffer, each preceded by its "0x". The capture reader points into its line buffer,
// so a log the decoder drops (most logs are plumbing) never becomes strings; the decoder slices out only what
// the events it keeps need.

export interface RawLog {
  bytes: Buffer;
  /** 40 digits. */
  addressAt: number;
  topicCount: number;
  /** The start of each topic's 64 digits (the first `topicCount` entries are set). */
  topicAt: Int32Array;
  /** The ABI data's digits are bytes[dataStart, dataEnd). */
  dataStart: number;
  dataEnd: number;
  /** 64 digits each. */
  txAt: number;
  blockHashAt: number;
  logIndex: number;
  txIndex: number;
}

/**
 * A RawLog of its own buffer, from string fields as JSON-RPC returns them (0x hex, any case; validated by the caller).
 */
export function createRawLog(log: {
  address: string;
  topics: readonly string[];
  data: string;
  logIndex: number;
  txIndex: number;
  tx: string;
  blockHash?: string;
}): RawLog {
  const fields = [log.address, ...log.topics, log.tx, log.blockHash ?? '0x' + '0'.repeat(64), log.data];
  const starts: number[] = [];
  let text = '';
  for (const field of fields) {
    starts.push(text.length + 2);
    text += '0x' + field.slice(2).toLowerCase();
  }
  const topicAt = new Int32Array(Math.max(4, log.topics.length));
  for (let i = 0; i < log.topics.length; i++) topicAt[i] = starts[1 + i]!;
  const after = 1 + log.topics.length;
  return {
    bytes: Buffer.from(text, 'latin1'),
    addressAt: starts[0]!,
    topicCount: log.topics.length,
    topicAt,
    txAt: starts[after]!,
    blockHashAt: starts[after + 1]!,
    dataStart: starts[after + 2]!,
    dataEnd: text.length,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
  };
}

/** "0x" + the `digits` digits at `at`, as one flat string. */
export function hexField(log: RawLog, at: number, digits: number): string {
  return log.bytes.toString('latin1', at - 2, at + digits);
}
