// A request that says `Connection: close` gets `Connection: close` on its answer (RFC 9112 9.6: the server closes the
// connection after that answer and says so). uWS closes it but writes no such header, so a client reads the answer as
// kept alive, and one still reading the body when the close comes fails: Node's fetch ("terminated: other side
// closed") on any gzipped answer past about 64 KB, though every byte arrived.
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';

const CLOSING = 'tallyClosing';

/** Called by the handler while the request is readable (uWS requests die with the handler). */
export function noteConnectionClose(res: HttpResponse, req: HttpRequest): void {
  if (/(?:^|,)\s*close\s*(?:,|$)/i.test(req.getHeader('connection')))
    (res as unknown as Record<string, boolean>)[CLOSING] = true;
}

/** Among an answer's headers. */
export function writeConnectionClose(res: HttpResponse): void {
  if ((res as unknown as Record<string, boolean>)[CLOSING]) res.writeHeader('connection', 'close');
}
