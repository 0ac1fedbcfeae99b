// The pages over HTTP (issue 25), against the real server on 127.0.0.1, without a browser: the shells and their
// files answer without a key, the import map precedes every module, every file a shell names is served with its
// type, ETags revalidate, a gzip comes once made, and the data routes still need the key.
import t from 'tap';
import { startServer } from '../../cli/commands/serveCommand.js';
import { createDemoData } from '../fixtures/demoData.js';
import { LIBRARY_FILES } from '../../api/pages/pageAssets.js';
import { BOARD_CATEGORIES } from '../../engine/rollup/boardCategories.js';
import { BOARD_SORTS } from '../../api/board/boardRankings.js';
import { BOARD_PERIODS } from '../../api/board/boardWindow.js';

const { data } = await createDemoData(4_000, 12);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const base = `http://127.0.0.1:${server.port}`;
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(base + path, { method, headers: { connection: 'close', ...headers } });

const SHELLS = ['/', `/wallet/0x${'ab'.repeat(20)}`, `/market/0x${'cd'.repeat(32)}`, '/docs'];

/** The files a shell names: its stylesheets, preloads and scripts. */
const namedFiles = (shell: string) => [...shell.matchAll(/(?:href|src)="\/assets\/([^"]+)"/g)].map((m) => m[1]!);

t.test('default: each shell answers without a key, its import map before every module', async (t) => {
  for (const path of SHELLS) {
    const answer = await get(path);
    t.equal(answer.status, 200, path);
    t.equal(answer.headers.get('content-type'), 'text/html; charset=utf-8', `${path}: html`);
    t.match(answer.headers.get('content-security-policy'), /default-src 'self'; script-src 'self' 'sha256-/);
    t.equal(answer.headers.get('cache-control'), 'no-cache');
    const shell = await answer.text();
    t.match(shell, /<link rel="icon" href="\/assets\/favicon.svg"/, `${path}: an icon, so no /favicon.ico is asked`);
    const map = shell.indexOf('<script type="importmap">');
    const firstModule = Math.min(
      ...['modulepreload', 'type="module"'].map((text) => shell.indexOf(text)).filter((i) => i >= 0),
    );
    if (path !== '/docs') t.ok(map >= 0 && map < firstModule, `${path}: the import map comes first`);
  }
  const app = await (await get('/')).text();
  t.same(
    JSON.parse(app.match(/<script type="importmap">(.*?)<\/script>/)![1]!).imports,
    {
      preact: '/assets/preact.mjs',
      'preact/hooks': '/assets/preact-hooks.mjs',
      htm: '/assets/htm.mjs',
      uplot: '/assets/uPlot.esm.js',
    },
    'the libraries resolve to served files',
  );
  t.ok(namedFiles(app).includes('main.js') && namedFiles(app).includes('walletPage.js'), 'the app modules preloaded');
  t.same(
    JSON.parse(app.match(/<script type="application\/json" id="server-choices">(.*?)<\/script>/)![1]!),
    { categories: [...BOARD_CATEGORIES], periods: BOARD_PERIODS, sorts: [...BOARD_SORTS] },
    "the board's choices, as the server has them",
  );
});

t.test('default: every file a shell names is served with its type; the libraries too', async (t) => {
  const names = new Set<string>(Object.keys(LIBRARY_FILES));
  for (const path of SHELLS) for (const name of namedFiles(await (await get(path)).text())) names.add(name);
  const types: Record<string, RegExp> = {
    js: /^text\/javascript/,
    mjs: /^text\/javascript/,
    css: /^text\/css/,
    svg: /^image\/svg\+xml$/,
  };
  for (const name of names) {
    const answer = await get(`/assets/${name}`);
    t.equal(answer.status, 200, name);
    t.match(answer.headers.get('content-type'), types[name.split('.').at(-1)!]!, `${name}: its type`);
    t.equal(answer.headers.get('x-content-type-options'), 'nosniff');
    t.ok((await answer.arrayBuffer()).byteLength > 0, `${name}: a body`);
  }
});

t.test('default: ETags revalidate; HEAD has no body; a gzip comes to a client that accepts it', async (t) => {
  const first = await get('/assets/swagger-ui-bundle.js');
  const body = Buffer.from(await first.arrayBuffer());
  const etag = first.headers.get('etag')!;
  t.match(etag, /^"[\w-]{27}"$/);
  t.equal((await get('/assets/swagger-ui-bundle.js', { 'if-none-match': etag })).status, 304, 'unchanged: 304');
  t.equal(
    (await get('/assets/swagger-ui-bundle.js', { 'if-none-match': `"x", W/${etag}` })).status,
    304,
    'in a list, weak',
  );
  t.equal((await get('/assets/swagger-ui-bundle.js', { 'if-none-match': '"x"' })).status, 200, 'another tag: 200');
  const head = await get('/assets/swagger-ui-bundle.js', { 'accept-encoding': 'identity' }, 'HEAD');
  t.equal(head.headers.get('content-length'), String(body.length), 'HEAD: the length');
  t.equal((await head.arrayBuffer()).byteLength, 0, 'HEAD: no body');
  let gzipped: Response | null = null;
  for (let i = 0; i < 50 && gzipped === null; i++) {
    const answer = await get('/assets/swagger-ui-bundle.js', { 'accept-encoding': 'gzip' });
    if (answer.headers.get('content-encoding') === 'gzip') gzipped = answer;
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.ok(gzipped, 'the gzip is made, then sent');
  const raw = await fetch(`${base}/assets/swagger-ui-bundle.js`, { headers: { 'accept-encoding': 'gzip' } });
  t.equal(raw.headers.get('vary'), 'Accept-Encoding');
  t.ok(body.equals(Buffer.from(await raw.arrayBuffer())), 'the decoded gzip is the file');
});

t.test('error: unknown files are 404; data and other paths still need the key', async (t) => {
  for (const path of ['/assets/nope.js', '/assets/..%2fpackage.json', '/assets/preact.mjs.map']) {
    const answer = await get(path);
    t.equal(answer.status, 404, path);
    t.same(await answer.json(), { error: 'not found' });
  }
  t.equal((await get('/v1/health')).status, 401, 'the data need a key');
  t.equal((await get('/wallet')).status, 401, 'no page there: the usual 401 of unknown paths');
  t.equal((await get('/docs/x')).status, 401);
});
