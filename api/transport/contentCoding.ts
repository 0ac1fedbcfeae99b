// Accept-Encoding as RFC 9110 12.5.3 reads it: a coding with q=0 is refused, `*` stands for every coding not
// named, and codings are case-insensitive. (A substring test would gzip for `gzip;q=0`.)
//
// Answers go in brotli when the client names it (browsers, curl --compressed, undici over https), else in gzip:
// `npm run bench:gzip` (bench/README.md) measured brotli quality 1 at about half of gzip level 1's CPU per answer,
// for fewer bytes. `*` alone gets gzip, the coding every client that sends it can be counted on to read.

/** A content coding the server makes. */
export type Coding = 'br' | 'gzip';

/** The common header with no parameters ("gzip, deflate, br"): one test a coding, nothing allocated. */
const PLAIN_GZIP = /(?:^|,)\s*(?:(?:x-)?gzip|\*)\s*(?:,|$)/i;
const PLAIN_BR = /(?:^|,)\s*br\s*(?:,|$)/i;

/** The weights the header gives gzip, brotli and `*` (null: not named). */
function weights(header: string): { gzip: number | null; br: number | null; any: number | null } {
  let gzip: number | null = null;
  let br: number | null = null;
  let any: number | null = null;
  for (const item of header.split(',')) {
    const [coding = '', ...parameters] = item.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((p) => p.startsWith('q='));
    const parsed = q === undefined ? 1 : Number(q.slice(2));
    const weight = Number.isNaN(parsed) ? 0 : parsed;
    if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip ?? 0, weight);
    else if (coding === 'br') br = weight;
    else if (coding === '*') any = weight;
  }
  return { gzip, br, any };
}

/** Whether the client takes gzip (the fills feed's rule, spec 4.9: gzipped when the request accepts gzip). */
export function acceptsGzip(header: string): boolean {
  if (header === '') return false;
  if (!header.includes(';')) return PLAIN_GZIP.test(header);
  const { gzip, any } = weights(header);
  return (gzip ?? any ?? 0) > 0;
}

/**
 * The coding an answer goes in: brotli when named with a weight above 0 and at least gzip's, else gzip when
 * accepted, else none.
 */
export function answerCoding(header: string): Coding | null {
  if (header === '') return null;
  if (!header.includes(';')) return PLAIN_BR.test(header) ? 'br' : PLAIN_GZIP.test(header) ? 'gzip' : null;
  const { gzip, br, any } = weights(header);
  const gzipWeight = gzip ?? any ?? 0;
  if (br !== null && br > 0 && br >= gzipWeight) return 'br';
  return gzipWeight > 0 ? 'gzip' : null;
}
