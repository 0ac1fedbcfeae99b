// Requests that are not well-formed HTTP/1.1, sent on raw sockets. uWebSockets.js refuses them itself, before
// any handler of ours runs, and gives no hook earlier than a parsed request (this build has no connection
// callback): some shapes are closed at once, the others held until its fixed HTTP idle timeout (10 s, 4 s
// granularity) and then closed, unanswered. Both groups are listed here: a change in the library shows up as a
// failure. HTTP/1.0 clients are served through a reverse proxy (test/api/reverseProxy.test.ts).
import t from 'tap';
import { startServer } from '../../cli/commands/serveCommand.js';
import { createDemoData } from '../fixtures/demoData.js';
import { rawBody, rawExchange } from '../fixtures/rawHttp.js';
import { runTallyAsync } from '../fixtures/runTally.js';

// The venue of test/api/reverseProxy.test.ts (the data matters not here): folded once for both.
const { data, key } = await createDemoData(100, 4);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const auth = `Authorization: Bearer ${key}\r\n`;

/** Closed at once, unanswered. */
const CLOSED_AT_ONCE: Record<string, string> = {
  'an unknown method': `FOO /v1/health HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
  'a lower-case method': `get /v1/health HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
  'Content-Length: -1': `GET /v1/health HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: -1\r\n\r\n`,
  'a chunked body that is not chunked': `POST /v1/health HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked\r\n\r\nzz\r\n`,
};

/** Held until the library's idle timeout, then closed unanswered. */
const HELD_THEN_CLOSED: Record<string, string> = {
  'HTTP/1.0': `GET /v1/health HTTP/1.0\r\n${auth}\r\n`,
  'HTTP/1.0 with a Host': `GET /v1/health HTTP/1.0\r\nHost: x\r\n${auth}\r\n`,
  'HTTP/0.9': 'GET /v1/health\r\n\r\n',
  'an absolute-form URI': `GET http://127.0.0.1/v1/health HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
  'LF-only line ends': `GET /v1/health HTTP/1.1\nHost: x\n${auth.replace('\r', '')}\n`,
  'a header line without a colon': `GET /v1/health HTTP/1.1\r\nHost: x\r\n${auth}BadHeader\r\n\r\n`,
  'no Host header': `GET /v1/health HTTP/1.1\r\n${auth}\r\n`,
  'two spaces in the request line': `GET  /v1/health  HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
  garbage: 'hello there\r\n\r\n',
  'binary bytes': '\x00\x01\x02\x03\r\n\r\n',
  'the HTTP/2 preface': 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
};

// Sent now and awaited by the last test: the other tests run during the library's idle timeout.
const held = Promise.all(Object.values(HELD_THEN_CLOSED).map((request) => rawExchange(server.port, request)));

t.test('default: a well-formed request on a raw socket, and non-ASCII header bytes, are answered', async (t) => {
  const ok = await rawExchange(server.port, `GET /v1/health HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`);
  t.equal(ok.status, 200);
  const latin = await rawExchange(
    server.port,
    Buffer.from(`GET /v1/health HTTP/1.1\r\nHost: x\r\nX-A: \xff\xfe\r\nConnection: close\r\n\r\n`, 'latin1'),
  );
  t.same([latin.status, rawBody(latin.text)], [401, { error: 'unknown or revoked API key' }]);
});

t.test('behavior: shapes the library closes at once', async (t) => {
  for (const [name, request] of Object.entries(CLOSED_AT_ONCE)) {
    const exchange = await rawExchange(server.port, request);
    t.equal(exchange.text, '', `${name}: no answer`);
    t.ok(exchange.ms < 1000, `${name}: closed in ${Math.round(exchange.ms)} ms`);
  }
});

t.test('error: a second server on a port in use exits non-zero naming the port', async (t) => {
  // Not blocking this process: its server keeps timing the held connections meanwhile.
  const second = await runTallyAsync(['serve', '--data', data, '--port', String(server.port)]);
  t.equal(second.code, 1);
  t.equal(
    second.stderr.trim(),
    `tally: cannot listen on 127.0.0.1:${server.port}: the port is in use (another server listens on it)`,
  );
  for (const port of ['65536', '99999', '-1', 'http']) {
    const bad = await runTallyAsync(['serve', '--data', data, '--port', port]);
    t.equal(bad.code, 2, `--port ${port}`);
    t.match(bad.stderr, /^tally: --port must be an integer from 0 to 65535/);
  }
});

t.test('behavior: shapes the library holds until its idle timeout, then closes', async (t) => {
  const exchanges = await held;
  Object.keys(HELD_THEN_CLOSED).forEach((name, i) => {
    t.equal(exchanges[i]!.text, '', `${name}: no answer`);
    t.ok(exchanges[i]!.ms < 20_000, `${name}: closed after ${Math.round(exchanges[i]!.ms)} ms`);
  });
  const health = await rawExchange(
    server.port,
    `GET /v1/health HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
  );
  t.equal(health.status, 200, 'the server answers as before');
});
