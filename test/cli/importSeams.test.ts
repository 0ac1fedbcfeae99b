// Imports run one way (README, Layout): the engine depends on no source, front or command line; the sources
// and the API never reach into the command line. Every relative import of every source file is resolved and
// checked, dynamic imports included.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every relative import of the files under `folder`: the importing file and the path it names. */
function importsOf(folder: string): Array<{ file: string; target: string }> {
  const found: Array<{ file: string; target: string }> = [];
  for (const name of readdirSync(join(root, folder), { recursive: true }) as string[]) {
    if (!/\.(ts|mjs)$/.test(name)) continue;
    const file = join(folder, name);
    for (const match of readFileSync(join(root, file), 'utf8').matchAll(IMPORT)) {
      found.push({ file, target: normalize(join(dirname(file), match[1]!)) });
    }
  }
  return found;
}

const crossing = (folder: string, forbidden: string[]) =>
  importsOf(folder)
    .filter(({ target }) => forbidden.some((top) => target === top || target.startsWith(top + '/')))
    .map(({ file, target }) => `${file} -> ${target}`);

t.test('engine imports neither api, replay nor cli', async (t) => {
  t.ok(importsOf('engine').length > 100, "the engine's imports were found");
  t.same(crossing('engine', ['api', 'replay', 'cli']), []);
});

t.test('api and replay never import the command line', async (t) => {
  t.same(crossing('api', ['cli']), []);
  t.same(crossing('replay', ['cli']), []);
});

t.test('the check sees a crossing import', async (t) => {
  t.ok(
    importsOf('cli').some(({ target }) => target.startsWith('api/')),
    'cli imports the API, as the composition does',
  );
});
