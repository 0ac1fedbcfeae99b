// Cross-origin access (api/README.md, Requests): a page on any origin may call the API. Keys travel in the
// Authorization header, never in cookies, so no ambient credential rides along and `*` is safe: every answer
// allows any origin and exposes the headers a client reads, and a preflight is answered for any path, without a
// key (browsers send none with it), allowing the headers the API reads.
import type { HttpResponse } from 'uWebSockets.js';
import { writeConnectionClose } from './connectionClose.js';

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';
const EXPOSED_HEADERS =
  'ETag, Link, Retry-After, WWW-Authenticate, X-Next-Cursor, X-RateLimit-Limit, X-RateLimit-Remaining, X-Tally-Block';
const ALLOWED_HEADERS = 'Authorization, If-None-Match';
/** How long a browser may keep a preflight's answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = '86400';

/** The headers of every answer. */
export function writeCorsHeaders(res: HttpResponse): void {
  res.writeHeader('access-control-allow-origin', '*').writeHeader('access-control-expose-headers', EXPOSED_HEADERS);
}

/** 204 to any OPTIONS: a CORS preflight, or a client asking what the path allows. */
export function sendPreflight(res: HttpResponse): void {
  res.cork(() => {
    res
      .writeStatus('204 No Content')
      .writeHeader('allow', ALLOWED_METHODS)
      .writeHeader('access-control-allow-origin', '*');
    res
      .writeHeader('access-control-allow-methods', ALLOWED_METHODS)
      .writeHeader('access-control-allow-headers', ALLOWED_HEADERS);
    res.writeHeader('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS);
    writeConnectionClose(res);
    res.endWithoutBody();
  });
}
