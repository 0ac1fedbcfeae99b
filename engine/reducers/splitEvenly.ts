// An amount shared over several legs: equal parts rounded down, the remainder to the first leg (the lowest
// question or outcome index), so the parts always sum exactly (docs/design.md 3, "Rounding").

export function splitEvenly(total: number, parts: number): number[] {
  if (!(parts > 0)) throw new RangeError('splitEvenly: parts must be positive');
  const base = Math.floor(total / parts);
  const shares = new Array<number>(parts).fill(base);
  shares[0] = base + (total - base * parts);
  return shares;
}
