// A fill as the state's fill tables give it back, and where a fill sits in the chain: what the fill reads
// (fillReads.ts) and the lists they merge (createFillLists.ts, newestFirst.ts) share.
import type { TradeRow } from './tradeRow.js';

/** A fill as stored, with where it sits in the chain. */
export interface StoredFill {
  block: number;
  /** The block's time. */
  ts: number;
  /** The market it is stored under: the condition id, or the token id of a token no condition explains. */
  market: string;
  row: TradeRow;
}

/** Where a fill sits in the chain. */
export interface FillPosition {
  block: number;
  logIndex: number;
}
