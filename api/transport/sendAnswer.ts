// Writes a JSON answer: status, content type, the rate headers on 200s, and the gzip of the body when the client
// accepts it and the body is worth compressing. A gzip not made yet is made off the event loop, and the request
// holds its in-flight slot until written; everything else is written at once, with nothing allocated for later.
// A HEAD request gets the same status and headers with no body: the body's Content-Length when the body is at
// hand, none when it is a gzip not made yet (HEAD never makes one). Every answer carries the CORS headers.
import type { HttpResponse } from 'uWebSockets.js';
import { STATUS_CODES } from 'node:http';
import { gzip, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import type { CachedAnswer } from './answerCache.js';
import { writeCorsHeaders } from './cors.js';
import { writeConnectionClose } from './connectionClose.js';

/** Headers beyond the content's own, by lower-case name. */
export type Headers = Record<string, string>;

const GZIP_MIN_BYTES = 1024;
/**
 * zlib's fastest level, as the fills feed's stream uses: `npm run bench:gzip` (bench/README.md) measured it at 0.34
 * to 0.50x level 6's CPU per answer (the default, used before) for 1.14 to 1.15x its bytes, on the answers a
 * client pulls most (open positions, trades and leaderboard pages, a market's traders).
 */
const ANSWER_GZIP_LEVEL = 1;
const JSON_TYPE = 'application/json; charset=utf-8';

/** zlib's options for an answer's gzip. */
export const gzipOptions = { level: ANSWER_GZIP_LEVEL };

/** Whether an answer's gzip is worth making (a small one goes as it is). */
export function worthGzip(json: Buffer): boolean {
  return json.length >= GZIP_MIN_BYTES;
}

export function encodeAnswer(body: unknown): CachedAnswer {
  return { json: Buffer.from(JSON.stringify(body)), gzip: undefined };
}

/** "200 OK": the status line's reason phrase (uWS writes the status as given, and "HTTP/1.1 200" lacks it). */
const statusLines = new Map<number, string>();
function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (line === undefined) statusLines.set(status, (line = `${status} ${STATUS_CODES[status] ?? ''}`.trimEnd()));
  return line;
}

/** How a HEAD request is answered: without the body, with its length when known (null: not known). */
function endWithoutBody(res: HttpResponse, length: number | null): void {
  if (length !== null) res.writeHeader('content-length', String(length));
  res.endWithoutBody();
}

/**
 * `varies`: the body's encoding depends on Accept-Encoding, which caches between must know. `head`: HEAD, no body.
 * A null body is a gzip not made yet (HEAD only).
 */
function writeAnswer(
  res: HttpResponse,
  status: number,
  headers: Headers | null,
  body: Buffer | null,
  gzipped: boolean,
  varies: boolean,
  head: boolean,
  contentType = JSON_TYPE,
): void {
  res.cork(() => {
    res.writeStatus(statusLine(status)).writeHeader('content-type', contentType);
    if (gzipped) res.writeHeader('content-encoding', 'gzip');
    if (varies) res.writeHeader('vary', 'Accept-Encoding');
    writeCorsHeaders(res);
    writeConnectionClose(res);
    if (headers) for (const name in headers) res.writeHeader(name, headers[name]!);
    if (head) endWithoutBody(res, body === null ? null : body.length);
    else res.end(body!);
  });
}

/**
 * A text answer that is not JSON (/metrics), written at once: gzipped when the client accepts it (Prometheus asks for
 * it), made on the spot since a scrape comes every few seconds at most and its text is tens of KB.
 */
export function sendText(
  res: HttpResponse,
  contentType: string,
  body: Buffer,
  head: boolean,
  gzipAccepted: boolean,
): void {
  if (gzipAccepted && worthGzip(body)) {
    writeAnswer(res, 200, null, gzipSync(body, gzipOptions), true, true, head, contentType);
  } else writeAnswer(res, 200, null, body, false, false, head, contentType);
}

/** A page or one of its files (api/pages), written at once: `gzipped` when the body is the gzip of the file. */
export function sendFile(
  res: HttpResponse,
  contentType: string,
  headers: Headers,
  body: Buffer,
  gzipped: boolean,
  head: boolean,
): void {
  writeAnswer(res, 200, headers, body, gzipped, true, head, contentType);
}

/** 304 Not Modified (RFC 9110 15.4.5): no body, the validator and the rate headers. */
export function sendNotModified(res: HttpResponse, headers: Record<string, string>): void {
  res.cork(() => {
    res.writeStatus(statusLine(304));
    writeCorsHeaders(res);
    writeConnectionClose(res);
    for (const name in headers) res.writeHeader(name, headers[name]!);
    res.endWithoutBody();
  });
}

/** A strong ETag of an answer's bytes. */
export function answerEtag(json: Buffer): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
}

/** An error answer: always small, so always plain and written at once. */
export function sendError(
  res: HttpResponse,
  status: number,
  error: string,
  headers: Headers | null = null,
  head = false,
): void {
  writeAnswer(res, status, headers, encodeAnswer({ error }).json, false, false, head);
}

export interface LaterOptions {
  /** Called once the answer is written or the client went away. */
  done(): void;
  /** Called with the gzip made, so a cache can keep it. */
  madeGzip?(gzip: Buffer): void;
}

/**
 * Writes the answer now and returns true; or returns false, having written nothing, when the gzip the client
 * should get is not made yet: sendGzipLater then writes it (so a synchronous answer builds no closures).
 */
export function sendAnswer(
  res: HttpResponse,
  status: number,
  headers: Headers | null,
  answer: CachedAnswer,
  acceptsGzip: boolean,
  head: boolean,
): boolean {
  // Whether this answer is ever gzipped, whatever this request accepts.
  const compressible = worthGzip(answer.json) && answer.gzip !== null;
  if (!acceptsGzip || !compressible) {
    writeAnswer(res, status, headers, answer.json, false, compressible, head);
    return true;
  }
  if (answer.gzip || head) {
    writeAnswer(res, status, headers, answer.gzip ?? null, true, true, head);
    return true;
  }
  return false;
}

/** Makes the answer's gzip off the event loop, then writes it. */
export function sendGzipLater(
  res: HttpResponse,
  status: number,
  headers: Headers | null,
  answer: CachedAnswer,
  options: LaterOptions,
): void {
  let aborted = false;
  res.onAborted(() => {
    aborted = true;
  });
  gzip(answer.json, gzipOptions, (error, compressed) => {
    // A callback has no caller to throw to: an exception here would end the process.
    try {
      if (!error) options.madeGzip?.(compressed);
      if (!aborted) writeAnswer(res, status, headers, error ? answer.json : compressed, !error, true, false);
    } catch (failure) {
      console.error(failure);
    } finally {
      options.done();
    }
  });
}
