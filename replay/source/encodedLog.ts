// A log as the chain gives it (its topics and data), and where it sits in the chain: what the encoders
// (encodeLog.ts, encodeV2Log.ts) make and a capture line (encodeCaptureLine.ts) holds.
export interface EncodedLog {
  topics: string[];
  data: string;
}

/** Where a log sits in the chain: the fields of a capture line besides the log itself. */
export interface LogPosition {
  blockNumber: number;
  blockHash: string;
  blockTs: number;
  txHash: string;
  txIndex: number;
  logIndex: number;
}
