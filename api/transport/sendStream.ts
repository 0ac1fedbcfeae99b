// Writes a streamed answer: JSON bytes pulled in pieces from the route as the client takes it, so a bulk answer
// (the fills feed) is never whole in memory. Pieces are gathered into chunks of about CHUNK_BYTES, written with
// HTTP chunked encoding, gzipped on the way (zlib on the thread pool) when the client accepts it. The producer
// pauses while the socket or zlib is backed up, and yields the event loop between chunks so other requests run.
import type { HttpResponse } from 'uWebSockets.js';
import type { TransformOptions } from 'node:stream';
import { constants, createGzip, type Gzip, type ZlibOptions } from 'node:zlib';
import { writeCorsHeaders } from './cors.js';
import { writeConnectionClose } from './connectionClose.js';

/** A chunk gathers pieces up to at least this (the fills feed's pieces are larger, and go as they are). */
const CHUNK_BYTES = 128 * 1024;
/**
 * zlib's output chunk: each chunk is a round trip to the thread pool, so small ones (16 KiB
 * by default) leave the stream waiting on them (measured: 160k rows/s at 16 KiB).
 */
const ZLIB_CHUNK_BYTES = 1024 * 1024;
/**
 * Bytes zlib may hold unread: a few chunks, so the route writes the next chunk while zlib compresses the last
 * one on the thread pool. At the default (16 KiB) every chunk filled it and the two took turns (measured with
 * bench:fills, 16 KiB against 512 KiB: 438k rows/s against 468k, 0.32x and 0.33x the same runs' ceilings).
 */
const ZLIB_INPUT_BYTES = 1024 * 1024;

/**
 * Huffman coding alone, no string matching: a stream is the fills feed, rows of integers where matching finds
 * little. Measured on a 50,000-row page (3.0 MB): 0.33-0.44 µs of CPU a row against level 1's 0.54-0.70, for 1.15x
 * its bytes (2.32x compression against 2.66x). Answers are the other way round (their keys and texts repeat): level 1
 * compresses them 5.7x, Huffman alone 1.55x, and at more CPU per KB.
 */
const STREAM_GZIP_STRATEGY = constants.Z_HUFFMAN_ONLY;

/** The pieces of a streamed answer (bytes of JSON text), pulled one at a time; null after the last. */
export interface AnswerPieces {
  next(): Buffer | null;
}

/** What a streaming route returns instead of an answer: the server then writes it with sendStream. */
export class StreamedAnswer {
  constructor(readonly pieces: AnswerPieces) {}
}

function writeStreamHeaders(res: HttpResponse, headers: Record<string, string>, gzipped: boolean): void {
  res
    .writeStatus('200 OK')
    .writeHeader('content-type', 'application/json; charset=utf-8')
    .writeHeader('vary', 'Accept-Encoding');
  if (gzipped) res.writeHeader('content-encoding', 'gzip');
  writeCorsHeaders(res);
  writeConnectionClose(res);
  for (const name in headers) res.writeHeader(name, headers[name]!);
}

/** A HEAD request's answer: the stream's status and headers, no body and no length (it is known only once sent). */
export function sendStreamHead(res: HttpResponse, headers: Record<string, string>, gzipped: boolean): void {
  res.cork(() => {
    writeStreamHeaders(res, headers, gzipped);
    res.endWithoutBody();
  });
}

/**
 * Writes the status line and headers now, then the body as it is pulled. `done` is called once, when the answer
 * is written, the client went away, or producing it failed (the connection is then closed: the status is out).
 */
export function sendStream(
  res: HttpResponse,
  headers: Record<string, string>,
  answer: StreamedAnswer,
  gzipped: boolean,
  done: () => void,
): void {
  let finished = false;
  let aborted = false;
  let gzip: Gzip | null = null;
  const finish = () => {
    if (finished) return;
    finished = true;
    done();
  };
  const fail = (error: unknown) => {
    console.error(error);
    gzip?.destroy();
    if (!aborted) {
      aborted = true;
      res.close();
    }
    finish();
  };
  res.onAborted(() => {
    aborted = true;
    gzip?.destroy();
    finish();
  });
  res.cork(() => writeStreamHeaders(res, headers, gzipped));

  let last = false;
  /** The next chunk; sets `last` when the answer is complete. */
  const pull = (): Buffer => {
    const pieces: Buffer[] = [];
    let length = 0;
    while (length < CHUNK_BYTES) {
      const piece = answer.pieces.next();
      if (piece === null) {
        last = true;
        break;
      }
      pieces.push(piece);
      length += piece.length;
    }
    return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, length);
  };
  /** Writes to the socket; false when it is backed up (uWS keeps what it could not send). */
  const write = (bytes: Buffer): boolean => {
    let ok = true;
    res.cork(() => {
      ok = res.write(bytes);
    });
    return ok;
  };

  if (!gzipped) {
    const pump = (): void => {
      if (aborted) return;
      try {
        const chunk = pull();
        const ok = chunk.length === 0 || write(chunk);
        if (last) {
          res.cork(() => res.end());
          finish();
        } else if (ok) {
          setImmediate(pump);
        } else {
          res.onWritable(() => {
            setImmediate(pump);
            return true;
          });
        }
      } catch (error) {
        fail(error);
      }
    };
    pump();
    return;
  }

  // zlib hands its options to its stream (node's zlib.js), though its type names only zlib's own.
  const options: ZlibOptions & Pick<TransformOptions, 'writableHighWaterMark'> = {
    level: 1,
    strategy: STREAM_GZIP_STRATEGY,
    flush: constants.Z_NO_FLUSH,
    chunkSize: ZLIB_CHUNK_BYTES,
    writableHighWaterMark: ZLIB_INPUT_BYTES,
  };
  const zip = createGzip(options);
  gzip = zip;
  zip.on('data', (bytes: Buffer) => {
    if (aborted) return;
    if (!write(bytes)) {
      zip.pause();
      res.onWritable(() => {
        zip.resume();
        return true;
      });
    }
  });
  zip.on('end', () => {
    if (!aborted) res.cork(() => res.end());
    finish();
  });
  zip.on('error', fail);
  const feed = (): void => {
    if (aborted) return;
    try {
      const chunk = pull();
      const ok = chunk.length === 0 || zip.write(chunk);
      if (last) zip.end();
      else if (ok) setImmediate(feed);
      else zip.once('drain', feed);
    } catch (error) {
      fail(error);
    }
  };
  feed();
}
