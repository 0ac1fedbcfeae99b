// Writes a JSON answer: status, content type, the rate headers on 200s, and the gzip of the body when the client
// accepts it and the body is worth compressing. A gzip not made yet is made off the event loop, and the request
// holds its in-flight slot until written; everything else is written at once, with nothing allocated for later.
import type { HttpResponse } from 'uWebSockets.js';
import { STATUS_CODES } from 'node:http';
import { gzip } from 'node:zlib';
import { createHash } from 'node:crypto';
import type { CachedAnswer } from './answerCache.js';

const GZIP_MIN_BYTES = 1024;

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

/** `varies`: the body's encoding depends on Accept-Encoding, which caches between must know. */
function writeAnswer(res: HttpResponse, status: number, headers: Record<string, string> | null, body: Buffer, gzipped: boolean, varies = false): void {
  res.cork(() => {
    res.writeStatus(statusLine(status)).writeHeader('content-type', 'application/json; charset=utf-8');
    if (gzipped) res.writeHeader('content-encoding', 'gzip');
    if (varies) res.writeHeader('vary', 'Accept-Encoding');
    if (headers) for (const name in headers) res.writeHeader(name, headers[name]!);
    res.end(body);
  });
}

/** 304 Not Modified (RFC 9110 15.4.5): no body, the validator and the rate headers. */
export function sendNotModified(res: HttpResponse, headers: Record<string, string>): void {
  res.cork(() => {
    res.writeStatus(statusLine(304));
    for (const name in headers) res.writeHeader(name, headers[name]!);
    res.endWithoutBody();
  });
}

/** A strong ETag of an answer's bytes. */
export function answerEtag(json: Buffer): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
}

/** An error answer: always small, so always plain and written at once. */
export function sendError(res: HttpResponse, status: number, error: string, headers: Record<string, string> | null = null): void {
  writeAnswer(res, status, headers, encodeAnswer({ error }).json, false);
}

export interface LaterOptions {
  /** Called once the answer is written or the client went away. */
  done(): void;
  /** Called with the gzip made, so a cache can keep it. */
  madeGzip?(gzip: Buffer): void;
}

/**
 * Writes the answer now and returns true, or, when its gzip must be made first, returns false and calls
 * later() for the options of the deferred write (so a synchronous answer builds no closures).
 */
export function sendAnswer(
  res: HttpResponse, status: number, headers: Record<string, string> | null, answer: CachedAnswer, acceptsGzip: boolean,
  later: () => LaterOptions,
): boolean {
  // Whether this answer is ever gzipped, whatever this request accepts.
  const compressible = answer.json.length >= GZIP_MIN_BYTES && answer.gzip !== null;
  if (!acceptsGzip || !compressible) {
    writeAnswer(res, status, headers, answer.json, false, compressible);
    return true;
  }
  if (answer.gzip) {
    writeAnswer(res, status, headers, answer.gzip, true, true);
    return true;
  }
  const options = later();
  let aborted = false;
  res.onAborted(() => { aborted = true; });
  gzip(answer.json, (error, compressed) => {
    // A callback has no caller to throw to: an exception here would end the process.
    try {
      if (!error) options.madeGzip?.(compressed);
      if (!aborted) writeAnswer(res, status, headers, error ? answer.json : compressed, !error, true);
    } catch (failure) {
      console.error(failure);
    } finally {
      options.done();
    }
  });
  return false;
}
