// A chain log as a source delivers it (capture line or eth_getLogs result), block fields split off.

export interface RawLog {
  address: string;
  topics: string[];
  data: string;
  logIndex: number;
  txIndex: number;
  tx: string;
}
