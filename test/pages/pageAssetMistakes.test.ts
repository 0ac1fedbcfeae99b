// A page asset that cannot be served stops the server at start with one line naming the file and what to do, an
// environment error (exit 1), never a request's 500 or a stack.
import t from 'tap';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPageAssets } from '../../api/pages/pageAssets.js';
import { EnvironmentError } from '../../engine/environmentError.js';

t.test('error: a file of no known type in the pages folder is named', async (t) => {
  const web = mkdtempSync(join(tmpdir(), 'tally-web-'));
  writeFileSync(join(web, 'app.mjs'), 'export {};\n');
  writeFileSync(join(web, 'notes.txt'), 'a stray file\n');
  t.throws(() => readPageAssets(web), EnvironmentError);
  t.throws(() => readPageAssets(web), {
    message: `pages: ${join(web, 'notes.txt')} is not a page asset (.js, .mjs, .css or .svg): move it out of the folder`,
  });
});

t.test('error: an asset that cannot be read is named', async (t) => {
  const web = mkdtempSync(join(tmpdir(), 'tally-web-'));
  mkdirSync(join(web, 'style.css'));
  t.throws(() => readPageAssets(web), {
    name: 'EnvironmentError',
    message: `pages: cannot read ${join(web, 'style.css')} (EISDIR)`,
  });
});

t.test('default: the pages folder as installed reads whole', async (t) => {
  const assets = readPageAssets();
  t.ok(assets.has('preact.mjs') && assets.has('swagger-ui-bundle.js'), 'the libraries from node_modules');
  t.ok(
    [...assets.values()].every((asset) => asset.body.length > 0),
    'every asset has bytes',
  );
});
