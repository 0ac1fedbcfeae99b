// Writes a JSON answer: status, content type, the rate headers on 200s, and the gzip of the body when the client
// accepts it and the body is worth compressing (made off the event loop unless already made, so the request
// holds its in-flight slot until written).
import type { HttpResponse } from 'uWebSockets.js';
import { gzip } from 'node:zlib';
import type { CachedAnswer } from './answerCache.js';

const GZIP_MIN_BYTES = 1024;

export function encodeAnswer(body: unknown): CachedAnswer {
  return { json: Buffer.from(JSON.stringify(body)), gzip: undefined };
}

export interface SendOptions {
  acceptsGzip: boolean;
  aborted(): boolean;
  /** Called once the answer is written or the client went away. */
  done(): void;
  /** Called with a gzip this call made, so a cache can keep it. */
  madeGzip?(gzip: Buffer): void;
}

export function sendAnswer(res: HttpResponse, status: number, headers: Record<string, string> | null, answer: CachedAnswer, options: SendOptions): void {
  const write = (body: Buffer, encoding: string | null) => {
    if (!options.aborted()) {
      res.cork(() => {
        res.writeStatus(String(status)).writeHeader('content-type', 'application/json; charset=utf-8');
        if (encoding) res.writeHeader('content-encoding', encoding);
        if (headers) for (const name in headers) res.writeHeader(name, headers[name]!);
        res.end(body);
      });
    }
    options.done();
  };
  if (!options.acceptsGzip || answer.json.length < GZIP_MIN_BYTES || answer.gzip === null) return write(answer.json, null);
  if (answer.gzip) return write(answer.gzip, 'gzip');
  gzip(answer.json, (error, compressed) => {
    if (error) return write(answer.json, null);
    options.madeGzip?.(compressed);
    write(compressed, 'gzip');
  });
}
