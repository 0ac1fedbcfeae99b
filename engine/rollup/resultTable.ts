// A wallet's market results packed into one Float64Array, RESULT_WIDTH numbers each in market key order: how
// they are stored (one value a wallet) and summed (no object a result: a wallet in 10,000 markets is read and
// summed in a few milliseconds). Every number is an integer, or for `invested` a half, of micro-units well
// inside 2^53, so float64 holds it exactly.
import type { MarketResult } from './marketResult.js';

/** Each field's offset inside a result. */
export const RESULT = {
  space: 0,
  id: 1,
  category: 2,
  settledPnl: 3,
  invested: 4,
  boughtUsd: 5,
  soldUsd: 6,
  boughtShares: 7,
  soldShares: 8,
  fees: 9,
  fills: 10,
  redemptions: 11,
  firstAt: 12,
  lastAt: 13,
  decidedAt: 14,
  openCount: 15,
  openValue: 16,
  openCost: 17,
  approx: 18,
} as const satisfies Record<keyof MarketResult, number>;
export const RESULT_WIDTH = 19;

export type ResultTable = Float64Array;

export function packResults(results: readonly MarketResult[]): ResultTable {
  const table = new Float64Array(results.length * RESULT_WIDTH);
  results.forEach((result, i) => {
    for (const [field, offset] of Object.entries(RESULT) as Array<[keyof MarketResult, number]>) {
      table[i * RESULT_WIDTH + offset] = field === 'approx' ? (result.approx ? 1 : 0) : (result[field] as number);
    }
  });
  return table;
}

export const resultCount = (table: ResultTable): number => table.length / RESULT_WIDTH;
