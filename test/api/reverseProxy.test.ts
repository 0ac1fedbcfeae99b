// The README's reverse-proxy example (api/reverseProxy/nginx.conf), run: nginx in front of tally serves an
// HTTP/1.0 client at once, and refuses garbage at once, where tally alone holds both (rawRequests.test.ts); the
// pages, /docs and their assets pass through, and /metrics answers a client on this host without a key. Needs
// nginx on the PATH (or in /usr/sbin; the pretest step installs it); skipped without it, failed under CI.
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startServer } from '../../cli/commands/serveCommand.js';
import { createDemoData } from '../fixtures/demoData.js';
import { findNginx } from '../fixtures/nginx.js';
import { rawBody, rawExchange } from '../fixtures/rawHttp.js';

const nginx = findNginx();
if (nginx === null && process.env.CI)
  t.fail('no nginx: the pretest step (test/installSystemPackages.ts) could not install it');

/** A port free right now, for nginx to listen on. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

t.test(
  'behavior: behind nginx, HTTP/1.0 is answered and garbage refused at once',
  { skip: nginx ? false : 'nginx is not installed' },
  async (t) => {
    const { data, key, inputs } = await createDemoData(100, 4);
    const server = await startServer({ data, host: '127.0.0.1', port: 0 });
    t.teardown(() => server.closeAll());
    const port = await freePort();
    const prefix = join(inputs.dir, 'nginx');
    mkdirSync(join(prefix, 'logs'), { recursive: true });
    const example = readFileSync(new URL('../../api/reverseProxy/nginx.conf', import.meta.url), 'utf8')
      .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${server.port};`)
      .replace('listen 80;', `listen 127.0.0.1:${port};`);
    writeFileSync(
      join(prefix, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${join(prefix, 'nginx.pid')};`,
        `error_log ${join(prefix, 'logs', 'error.log')};`,
        'events { worker_connections 64; }',
        `http { access_log off; client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy;`,
        example,
        '}',
      ].join('\n'),
    );
    const check = spawnSync(nginx!, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-t'], { encoding: 'utf8' });
    t.equal(check.status, 0, check.stderr);
    const proxy = spawn(nginx!, ['-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: 'ignore' });
    t.teardown(() => void proxy.kill('SIGQUIT'));
    for (
      let tries = 0;
      tries < 100 &&
      (await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 1000)).status === null;
      tries++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const http10 = await rawExchange(port, `GET /v1/health HTTP/1.0\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    t.match(http10.text, /^HTTP\/1\.1 200 OK\r\n/, 'answered (nginx answers 1.0 clients in HTTP/1.1 form)');
    t.match(rawBody(http10.text), { status: 'ok' });
    t.ok(http10.ms < 1000, `in ${Math.round(http10.ms)} ms`);
    const garbage = await rawExchange(port, 'hello there\r\n\r\n');
    t.equal(garbage.status, 400, 'garbage refused by nginx');
    t.ok(garbage.ms < 1000, `in ${Math.round(garbage.ms)} ms`);
    const gzipped = await rawExchange(
      port,
      `GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n`,
    );
    t.match(gzipped.text, /\r\ncontent-encoding: gzip\r\n/i, "tally's gzip passes through");
    const get = (path: string) => rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    for (const path of ['/', '/docs', `/wallet/0x${'a'.repeat(40)}`]) {
      const page = await get(path);
      t.equal(page.status, 200, `${path} passes through`);
      t.match(page.text, /content-type: text\/html/i);
    }
    const metrics = await get('/metrics');
    t.equal(metrics.status, 200, '/metrics answers this host without a key');
    t.match(metrics.text, /\ntally_fold_block \d+/);
    const keyless = await rawExchange(port, 'GET /v1/health HTTP/1.0\r\n\r\n');
    t.same(
      [keyless.status, rawBody(keyless.text)],
      [401, { error: 'unknown or revoked API key' }],
      "tally's errors pass through",
    );
  },
);
