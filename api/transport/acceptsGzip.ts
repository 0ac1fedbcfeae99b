// Accept-Encoding as RFC 9110 12.5.3 reads it: a coding with q=0 is refused, `*` stands for every coding not
// named, and codings are case-insensitive. (A substring test would gzip for `gzip;q=0`.)

/** The common header with no parameters ("gzip, deflate, br"): one test, nothing allocated. */
const PLAIN_GZIP = /(?:^|,)\s*(?:(?:x-)?gzip|\*)\s*(?:,|$)/i;

export function acceptsGzip(header: string): boolean {
  if (header === '') return false;
  if (!header.includes(';')) return PLAIN_GZIP.test(header);
  let gzip: number | null = null;
  let any: number | null = null;
  for (const item of header.split(',')) {
    const [coding = '', ...parameters] = item.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip ?? 0, Number.isNaN(weight) ? 0 : weight);
    else if (coding === '*') any = Number.isNaN(weight) ? 0 : weight;
  }
  return (gzip ?? any ?? 0) > 0;
}
