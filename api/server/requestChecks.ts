// What every path checks before anything else, and the refusals the server writes itself: the URL's and the
// headers' size (414, 431), the key (401), and the 500 of an exception that escaped an answerer.
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { bearerChallenge, ERROR } from '../errorTexts.js';
import { sendError, type Headers } from '../transport/sendAnswer.js';

import { MAX_HEADER_BYTES, MAX_URL_CHARS } from '../apiLimits.js';

/** An error answer; returns its status. */
export function refuse(
  res: HttpResponse,
  status: number,
  text: string,
  headers: Headers | null,
  head: boolean,
): number {
  sendError(res, status, text, headers, head);
  return status;
}

/**
 * An exception that escaped an answerer: logged, and a 500 when nothing was written yet. Nothing may escape a uWS
 * handler: an exception there ends the process.
 */
export function answerFailure(res: HttpResponse, error: unknown): number {
  console.error(error);
  try {
    sendError(res, 500, ERROR.internal);
  } catch {
    // The answer was already written (a finished response refuses further writes): nothing more to send.
  }
  return 500;
}

/** The request's header names and values, summed (uWS itself accepts far larger headers). */
export function headerBytes(req: HttpRequest): number {
  let bytes = 0;
  req.forEach((name, value) => {
    bytes += name.length + value.length + 4;
  });
  return bytes;
}

/** Whether uWS's request is over the size limits: its 414 or 431 written, else 0. */
export function requestSizeRefusal(res: HttpResponse, req: HttpRequest, head: boolean): number {
  return sizeRefusal(res, req.getUrl(), req.getQuery() ?? '', headerBytes(req), head);
}

/** 414 or 431 when the URL or the headers are over their limits (checked before the key, on every path), else 0. */
export function sizeRefusal(res: HttpResponse, url: string, query: string, headers: number, head: boolean): number {
  if (url.length + query.length > MAX_URL_CHARS) return refuse(res, 414, ERROR.urlTooLong, null, head);
  if (headers > MAX_HEADER_BYTES) return refuse(res, 431, ERROR.headersTooLarge, null, head);
  return 0;
}

/** The 401, its challenge telling a missing key from a refused one. */
export function unauthorized(res: HttpResponse, authorization: string, head: boolean): number {
  return refuse(res, 401, ERROR.unauthorized, { 'www-authenticate': bearerChallenge(authorization !== '') }, head);
}

/** The key of `Authorization: Bearer KEY`; the scheme's letter case does not matter (RFC 9110 11.1). */
export function bearerKey(authorization: string): string {
  const scheme = authorization.slice(0, 7);
  return scheme === 'Bearer ' || scheme.toLowerCase() === 'bearer ' ? authorization.slice(7).trim() : '';
}
