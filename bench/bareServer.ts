// The API benchmark's ceiling: a bare uWebSockets.js handler answering fixed bytes from memory, with the same
// headers as tally's answers. Usage: bareServer.ts FILE PORT [gzip]; prints "ready" when listening.
import uWS from 'uWebSockets.js';
import { readFileSync } from 'node:fs';

const [file, port, encoding] = process.argv.slice(2) as [string, string, string | undefined];
const body = readFileSync(file);
uWS
  .App()
  .get('/*', (res) => {
    res.cork(() => {
      res.writeStatus('200').writeHeader('content-type', 'application/json; charset=utf-8');
      if (encoding) res.writeHeader('content-encoding', encoding);
      res.writeHeader('x-ratelimit-limit', '600').writeHeader('x-ratelimit-remaining', '599').end(body);
    });
  })
  .listen('127.0.0.1', Number(port), (socket) => {
    if (!socket) process.exit(1);
    console.log('ready');
  });
