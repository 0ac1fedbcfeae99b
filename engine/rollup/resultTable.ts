// A wallet's market results packed into the table the state stores (engine/state/boardRecords.ts).
import type { MarketResult } from './marketResult.js';
import { RESULT, RESULT_WIDTH, type ResultTable } from '../state/boardRecords.js';

// The stored layout names every field of a result (checked here, where both are known).
RESULT satisfies Record<keyof MarketResult, number>;

export function packResults(results: readonly MarketResult[]): ResultTable {
  const table = new Float64Array(results.length * RESULT_WIDTH);
  results.forEach((result, i) => {
    for (const [field, offset] of Object.entries(RESULT) as Array<[keyof MarketResult, number]>) {
      table[i * RESULT_WIDTH + offset] = field === 'approx' ? (result.approx ? 1 : 0) : (result[field] as number);
    }
  });
  return table;
}
