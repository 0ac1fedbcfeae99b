// A chain log as a source delivers it (capture line or eth_getLogs result), block fields split off. Hex is
// lowercase. `data` is the ABI data's hex characters (without 0x) as bytes in `dataBytes[dataStart, dataEnd)`:
// the capture reader points into its line buffer, so decoding reads words without making one large string
// per log (substrings of it would keep it alive).

export interface RawLog {
  address: string;
  topics: string[];
  dataBytes: Buffer;
  dataStart: number;
  dataEnd: number;
  logIndex: number;
  txIndex: number;
  tx: string;
}

/** A RawLog from string fields as JSON-RPC returns them (0x hex, any case). */
export function createRawLog(log: {
  address: string; topics: readonly string[]; data: string; logIndex: number; txIndex: number; tx: string;
}): RawLog {
  const dataBytes = Buffer.from(log.data.slice(2).toLowerCase(), 'latin1');
  return {
    address: log.address.toLowerCase(),
    topics: log.topics.map((t) => t.toLowerCase()),
    dataBytes,
    dataStart: 0,
    dataEnd: dataBytes.length,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx: log.tx.toLowerCase(),
  };
}
