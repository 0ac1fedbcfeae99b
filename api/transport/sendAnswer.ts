// Writes a JSON answer: status, content type, the rate headers on 200s, and the body in the coding the client
// takes (contentCoding.ts) when the body is worth compressing. A compression not made yet is made off the event
// loop, and the request holds its in-flight slot until written; everything else is written at once, with nothing
// allocated for later. A HEAD request gets the same status and headers with no body: the body's Content-Length
// when the body is at hand, none when it is a compression not made yet (HEAD never makes one). Every answer
// carries the CORS headers.
import type { HttpResponse } from 'uWebSockets.js';
import { STATUS_CODES } from 'node:http';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type CompressCallback } from 'node:zlib';
import { createHash } from 'node:crypto';
import type { CachedAnswer } from './answerCache.js';
import { writeCorsHeaders } from './cors.js';
import { writeConnectionClose } from './connectionClose.js';
import type { Coding } from './contentCoding.js';
import { JsonBody } from './jsonBody.js';

/** Headers beyond the content's own, by lower-case name. */
export type Headers = Record<string, string>;

const GZIP_MIN_BYTES = 1024;
/**
 * zlib's fastest level: `npm run bench:gzip` (bench/README.md) measured it at 0.31 to 0.52x level 6's CPU per answer
 * (the default, used before) for 1.14 to 1.15x its bytes, on the answers a client pulls most (open positions, trades
 * and leaderboard pages, a market's traders).
 */
const ANSWER_GZIP_LEVEL = 1;
/**
 * Brotli's quality 1: `npm run bench:gzip` measured it at 0.41-0.55x gzip level 1's CPU on the same answers, for
 * 0.85-0.94x its bytes; quality 0 costs 0.6x quality 1's CPU for 1.2x its bytes, quality 2 twice it for 0-3% less.
 */
const ANSWER_BROTLI_QUALITY = 1;
const JSON_TYPE = 'application/json; charset=utf-8';

/** zlib's options for an answer's gzip. */
const gzipOptions = { level: ANSWER_GZIP_LEVEL };

/** zlib's options for an answer's brotli: the size known ahead lets the encoder size its window and tables. */
function brotliOptions(json: Buffer) {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: ANSWER_BROTLI_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  };
}

/** Whether an answer is worth compressing (a small one goes as it is). */
export function worthCompressing(json: Buffer): boolean {
  return json.length >= GZIP_MIN_BYTES;
}

/**
 * Huffman coding alone, no string matching, for the fills feed: rows of integers, where matching finds little.
 * Measured on a 50,000-row page (3.0 MB): 0.32-0.35 µs of CPU a row against level 1's 0.54-0.58, for 1.15x its
 * bytes (2.32x compression against 2.66x). Answers are the other way round (their keys and texts repeat): level 1
 * compresses them 4.8x, Huffman alone 1.5x, and at more CPU per KB.
 */
const ROWS_GZIP_OPTIONS = { level: 1, strategy: constants.Z_HUFFMAN_ONLY };

/** The gzip of the fills feed's rows, made now, on this thread. */
export function gzipRowsNow(json: Buffer): Buffer {
  return gzipSync(json, ROWS_GZIP_OPTIONS);
}

/** The answer in `coding`, made now, on this thread. */
export function compressNow(json: Buffer, coding: Coding): Buffer {
  return coding === 'br' ? brotliCompressSync(json, brotliOptions(json)) : gzipSync(json, gzipOptions);
}

/**
 * The largest answer compressed on the serving thread when first asked for. Handing a compression to the thread
 * pool costs more than making it (in-process, 200 open-positions answers of about 45 KB: brotli 115 µs of CPU
 * made here against 280 µs handed over, gzip 215 against 360; over HTTP, 2 threads, uncached: 2,170 against
 * 1,600 answers/s in brotli). Below this the event loop is held at most about half a millisecond (bench:gzip);
 * above it, the thread pool makes it while other requests are answered.
 */
const COMPRESS_HERE_MAX_BYTES = 256 * 1024;

/** The answer in `coding`, made on the thread pool. */
function compressLater(json: Buffer, coding: Coding, callback: CompressCallback): void {
  if (coding === 'br') brotliCompress(json, brotliOptions(json), callback);
  else gzip(json, gzipOptions, callback);
}

/** An answer's bytes: a route's JsonBody as it is, anything else through JSON.stringify. */
export function encodeAnswer(body: unknown): CachedAnswer {
  return { json: body instanceof JsonBody ? body.json : Buffer.from(JSON.stringify(body)) };
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
 * `coding`: the body's content coding, if any. `varies`: the body's coding depends on Accept-Encoding, which caches
 * between must know. `head`: HEAD, no body. A null body is a compression not made yet (HEAD only).
 */
function writeAnswer(
  res: HttpResponse,
  status: number,
  headers: Headers | null,
  body: Buffer | null,
  coding: Coding | null,
  varies: boolean,
  head: boolean,
  contentType = JSON_TYPE,
): void {
  res.cork(() => {
    res.writeStatus(statusLine(status)).writeHeader('content-type', contentType);
    if (coding !== null) res.writeHeader('content-encoding', coding);
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
  if (gzipAccepted && worthCompressing(body)) {
    writeAnswer(res, 200, null, compressNow(body, 'gzip'), 'gzip', true, head, contentType);
  } else writeAnswer(res, 200, null, body, null, false, head, contentType);
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
  writeAnswer(res, 200, headers, body, gzipped ? 'gzip' : null, true, head, contentType);
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
  writeAnswer(res, status, headers, encodeAnswer({ error }).json, null, false, head);
}

export interface LaterOptions {
  /** Called once the answer is written or the client went away. */
  done(): void;
  /** Called with the compression made, so a cache can keep it. */
  made?(coding: Coding, bytes: Buffer): void;
}

/**
 * Writes the answer now and returns true; or returns false, having written nothing, when the compression the
 * client should get is not made yet and too large to make here: sendCompressedLater then writes it (so a
 * synchronous answer builds no closures). A compression made here is handed to `made`, so a cache can keep it.
 */
export function sendAnswer(
  res: HttpResponse,
  status: number,
  headers: Headers | null,
  answer: CachedAnswer,
  coding: Coding | null,
  head: boolean,
  made?: LaterOptions['made'],
): boolean {
  // Whether this answer is ever compressed, whatever this request accepts.
  const compressible = answer.compressAlways === true || worthCompressing(answer.json);
  if (coding === null || !compressible) {
    writeAnswer(res, status, headers, answer.json, null, compressible, head);
    return true;
  }
  let compressed = answer[coding];
  if (!compressed && !head && answer.json.length <= COMPRESS_HERE_MAX_BYTES) {
    compressed = compressNow(answer.json, coding);
    made?.(coding, compressed);
  }
  if (compressed || head) {
    writeAnswer(res, status, headers, compressed ?? null, coding, true, head);
    return true;
  }
  return false;
}

/** Makes the answer's compression in `coding` off the event loop, then writes it. */
export function sendCompressedLater(
  res: HttpResponse,
  status: number,
  headers: Headers | null,
  answer: CachedAnswer,
  coding: Coding,
  options: LaterOptions,
): void {
  let aborted = false;
  res.onAborted(() => {
    aborted = true;
  });
  compressLater(answer.json, coding, (error, compressed) => {
    // A callback has no caller to throw to: an exception here would end the process.
    try {
      if (!error) options.made?.(coding, compressed);
      if (!aborted) {
        writeAnswer(res, status, headers, error ? answer.json : compressed, error ? null : coding, true, false);
      }
    } catch (failure) {
      console.error(failure);
    } finally {
      options.done();
    }
  });
}
