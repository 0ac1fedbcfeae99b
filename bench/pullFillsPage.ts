// A page of the fills feed as a lean client takes it (bench:fills, and the pulls beside bench:api's cheap
// requests): gzipped, gunzipped by zlib and its rows counted in the bytes (one '[' a row, besides the fills array's
// own), the text never decoded. The load generator shares the server's 2 cores: fetch, decoding the text and
// scanning it in JavaScript took about 1 µs a row, as much as the server's gzip.
import { get } from 'node:http';
import { createGunzip } from 'node:zlib';

const OPEN_BRACKET = 0x5b;
/** The end of a page kept to read `next` from. */
const TAIL_BYTES = 256;

/** The page at `path` (with its query), asked with `key` on a fresh connection: its rows, `next`, completeThroughTs. */
export function pullFillsPage(
  port: number,
  key: string,
  path: string,
): Promise<{ rows: number; next: string | null; completeThroughTs: number }> {
  return new Promise((resolve, reject) => {
    const request = get(
      {
        host: '127.0.0.1',
        port,
        path,
        headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' },
        // A pooled connection may have been closed by the server while idle.
        agent: false,
      },
      (response) => {
        if (response.statusCode !== 200 || response.headers['content-encoding'] !== 'gzip') {
          response.resume();
          reject(
            new Error(
              `the feed answered ${response.statusCode}, ${response.headers['content-encoding'] ?? 'not gzipped'}`,
            ),
          );
          return;
        }
        let brackets = 0;
        let tail = Buffer.alloc(0);
        const body = response.pipe(createGunzip());
        body.on('data', (bytes: Buffer) => {
          for (let at = bytes.indexOf(OPEN_BRACKET); at >= 0; at = bytes.indexOf(OPEN_BRACKET, at + 1)) brackets++;
          tail = Buffer.concat([tail, bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES))]).subarray(-TAIL_BYTES);
        });
        body.on('end', () => {
          const end = /"completeThroughTs":(\d+),"next":(?:"([^"]+)"|null)\}$/.exec(tail.toString('latin1'));
          if (end === null) reject(new Error('the page does not end with completeThroughTs and next'));
          else resolve({ rows: brackets - 1, next: end[2] ?? null, completeThroughTs: Number(end[1]) });
        });
        body.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}
