// Exact floor(a*b/c) for non-negative safe integers: the product may exceed 2^53, in which case the division is done
// in bigint so nothing is lost (a float product could floor one micro-unit low).

export function mulDivFloor(a: number, b: number, c: number): number {
  if (c === 0) throw new RangeError('mulDivFloor: division by zero');
  const product = a * b;
  if (product <= Number.MAX_SAFE_INTEGER) return Math.floor(product / c);
  return Number((BigInt(a) * BigInt(b)) / BigInt(c));
}
