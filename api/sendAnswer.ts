// Writes a JSON answer: status, content type, the rate headers on 200s, gzip when the client accepts it and the
// body is worth compressing (done off the event loop, so the request holds its in-flight slot until written).
import type { HttpResponse } from 'uWebSockets.js';
import { gzip } from 'node:zlib';

const GZIP_MIN_BYTES = 1024;

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Calls `done` once the answer is written or the client went away. */
export function sendAnswer(res: HttpResponse, answer: Answer, acceptsGzip: boolean, aborted: () => boolean, done: () => void): void {
  const json = JSON.stringify(answer.body);
  const write = (body: string | Buffer, encoding: string | null) => {
    if (!aborted()) {
      res.cork(() => {
        res.writeStatus(String(answer.status)).writeHeader('content-type', 'application/json; charset=utf-8');
        if (encoding) res.writeHeader('content-encoding', encoding);
        for (const [name, value] of Object.entries(answer.headers ?? {})) res.writeHeader(name, value);
        res.end(body);
      });
    }
    done();
  };
  if (!acceptsGzip || json.length < GZIP_MIN_BYTES) return write(json, null);
  gzip(json, (error, compressed) => (error ? write(json, null) : write(compressed, 'gzip')));
}
