// Exact a*b/c rounded once, half away from zero (docs/design.md 3, "Rounding"). Safe-integer inputs;
// the product may exceed 2^53, in which case the division is done in bigint so nothing is lost.

const SAFE = Number.MAX_SAFE_INTEGER;

export function mulDivRound(a: number, b: number, c: number): number {
  if (c === 0) throw new RangeError('mulDivRound: division by zero');
  const product = a * b;
  if (product <= SAFE && product >= -SAFE) {
    const quotient = Math.trunc(product / c);
    const remainder = product - quotient * c;
    if (remainder === 0) return quotient;
    const away = 2 * Math.abs(remainder) >= Math.abs(c);
    if (!away) return quotient;
    return product < 0 !== c < 0 ? quotient - 1 : quotient + 1;
  }
  const p = BigInt(a) * BigInt(b);
  const d = BigInt(c);
  let quotient = p / d;
  const remainder = p - quotient * d;
  const absRemainder = remainder < 0n ? -remainder : remainder;
  const absDivisor = d < 0n ? -d : d;
  if (2n * absRemainder >= absDivisor) quotient += p < 0n !== d < 0n ? -1n : 1n;
  return Number(quotient);
}
