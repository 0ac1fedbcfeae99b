// The access log of `--access-log` (api/README.md, Operating): one line per request, written once its answer is
// (a stream's when it ends): time, client address, method and target, status, milliseconds, and the key's
// prefix as `tally keys list` shows it (never the key), or `-` without a valid key. Off by default; when off,
// a request costs nothing here.
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';

/** What a line needs of the request, read while the request is alive (uWS requests die when the handler returns). */
export interface AccessEntry {
  remote: string;
  /** Method and target, as a JSON string (quoted, anything odd escaped: a line is one line). */
  request: string;
  key: string;
}

export type AccessLog = (line: string) => void;

/** What `tally keys list` shows of a key. */
const KEY_PREFIX_CHARS = 10;

export function openAccessEntry(res: HttpResponse, req: HttpRequest): AccessEntry {
  const query = req.getQuery();
  return {
    remote: Buffer.from(res.getRemoteAddressAsText()).toString(),
    request: JSON.stringify(`${req.getMethod().toUpperCase()} ${req.getUrl()}${query ? `?${query}` : ''}`),
    key: '-',
  };
}

export function keyPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX_CHARS);
}

export function accessLogLine(entry: AccessEntry, status: number, milliseconds: number): string {
  return `${new Date().toISOString()} ${entry.remote} ${entry.request} ${status} ${milliseconds.toFixed(2)}ms ${entry.key}`;
}
