// Imports run one way (README, Layout): the engine depends on no source, front or command line; the sources
// and the API never reach into the command line; inside the engine, the API and the sources each folder imports only
// the folders below it in the pipeline; and no files import each other in a circle. Every relative import of every
// source file is resolved and checked, type-only and dynamic imports included.
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/**
 * Each folder of the engine and of the sources, lowest first: a file imports files of its own folder or of one
 * below (the top level's shared helpers, '', lowest of all).
 */
const PIPELINE: Record<string, string[]> = {
  engine: ['', 'chain', 'log', 'reducers', 'state', 'valuation', 'offchain', 'fold', 'tags', 'rollup'],
  api: [
    '',
    'query',
    'schemas',
    'transport',
    'limits',
    'metrics',
    'rows',
    'board',
    'search',
    'strikes',
    'venueApi',
    'routes',
    'openapi',
    'pages',
    'heavy',
    'server',
  ],
  replay: ['', 'decode', 'source', 'ingest', 'stream', 'devnet'],
};

/** The folder of `path` under `top` ('' for a file at the top level). */
const folderOf = (top: string, path: string) => {
  const parts = path.slice(top.length + 1).split('/');
  return parts.length > 1 ? parts[0]! : '';
};

/** Imports of a folder of `top` from one above it, or from a folder the pipeline does not list. */
function upwardImports(top: string): string[] {
  const order = PIPELINE[top]!;
  return importsOf(top)
    .filter(({ target }) => target.startsWith(top + '/'))
    .filter(({ file, target }) => {
      const from = order.indexOf(folderOf(top, file));
      const to = order.indexOf(folderOf(top, target));
      return from === -1 || to === -1 || to > from;
    })
    .map(({ file, target }) => `${file} -> ${target}`);
}

t.test('inside the engine, the API and the sources, folders import only the folders below them', async (t) => {
  t.same(upwardImports('engine'), []);
  t.same(upwardImports('api'), []);
  t.same(upwardImports('replay'), []);
});

/** The source file an import names: its .ts for a .js name, as tsc resolves it. */
const sourceOf = (target: string) => {
  const ts = target.replace(/\.js$/, '.ts');
  return existsSync(join(root, ts)) ? ts : target;
};

/** The import graph of the files under `folders`: each file and the files it imports. */
function importGraph(folders: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const folder of folders) {
    for (const { file, target } of importsOf(folder)) {
      graph.set(file, [...(graph.get(file) ?? []), sourceOf(target)]);
    }
  }
  return graph;
}

/** Each circle of files that import each other (Tarjan's strongly connected components), as its files. */
function circlesOf(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const circle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      circle.push(member);
    } while (member !== file);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

t.test('no files import each other in a circle', async (t) => {
  t.same(circlesOf(importGraph(['engine', 'api', 'replay', 'cli', 'bench'])), []);
});

t.test('the checks see an upward import and a circle', async (t) => {
  t.equal(folderOf('engine', 'engine/state/fillReads.ts'), 'state');
  t.equal(folderOf('engine', 'engine/assert.ts'), '');
  t.ok(
    importsOf('engine').some(
      ({ file, target }) => file.startsWith('engine/fold/') && target.startsWith('engine/state/'),
    ),
    'the fold imports the state, as the pipeline runs',
  );
  const circle = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', ['a.ts']],
  ]);
  t.same(circlesOf(circle), [['a.ts', 'b.ts', 'c.ts']], 'a circle of three, and not the file that imports into it');
  t.same(circlesOf(new Map([['a.ts', ['b.ts']]])), [], 'a line is no circle');
});
