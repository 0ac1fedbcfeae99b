// The Data API's sortBy/sortDirection over answer rows: by one field, numbers by value and text by code point,
// ties broken by a field that tells rows apart (always ascending), so a page boundary is the same on every call.

export function sortRows<R, K extends keyof R>(rows: R[], by: K, direction: 'ASC' | 'DESC', tie: keyof R): R[] {
  const sign = direction === 'ASC' ? 1 : -1;
  return rows.sort((a, b) => sign * compare(a[by], b[by]) || compare(a[tie], b[tie]));
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}
