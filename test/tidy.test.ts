// House rules a reviewer would otherwise have to remember (docs/style.md; issue 22 item 11), checked over the source
// tree so the next slip fails a test: the pure folders read no clock, randomness or environment and do no I/O;
// production code reads no environment switch beyond the documented ones; exit codes are the command line's alone
// (engine/refusedError.ts has the error tree), and it never throws a plain Error (a user's mistake is a
// RefusedError, an InputError or a UsageError, a bug an AssertionFailure).
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

/** Every source file under `folder` with its text, comments left in (the rules below match code shapes). */
function sources(folder: string): Array<{ file: string; text: string }> {
  return (readdirSync(join(root, folder), { recursive: true }) as string[])
    .filter((name) => /\.(ts|mjs)$/.test(name))
    .map((name) => ({ file: join(folder, name), text: readFileSync(join(root, folder, name), 'utf8') }));
}

/** `file:line: text` of every line of `files` that matches `pattern`, comment lines left out. */
function offending(files: Array<{ file: string; text: string }>, pattern: RegExp): string[] {
  const found: string[] = [];
  for (const { file, text } of files) {
    text.split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      if (pattern.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return found;
}

const PURE_FOLDERS = ['engine/reducers', 'engine/valuation', 'engine/rollup', 'engine/tags'];
/** The files that are pure functions of their arguments: no I/O either (the rest of their folders read the state). */
const PURE_FILES = [
  ...PURE_FOLDERS.slice(0, 2).flatMap(sources),
  ...[
    'engine/rollup/boardRow.ts',
    'engine/rollup/marketResult.ts',
    'engine/rollup/boardCategories.ts',
    'engine/rollup/resultTable.ts',
    'engine/tags/walletTagRules.ts',
  ].map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') })),
];
const CLOCK_OR_CHANCE =
  /\bDate\.now\(|\bnew Date\(\s*\)|\bperformance\.now\(|\bprocess\.hrtime|\bMath\.random\(|\brandom(Bytes|UUID|Int)\(|\bprocess\.env\b/;
const IO_IMPORT = /from\s+['"](node:|fs|lmdb|piscina|uWebSockets\.js|worker_threads)/;
/** The environment the README documents: the data directory, the port and the RPC node. */
const ENVIRONMENT = new Set(['TALLY_DATA', 'PORT', 'TALLY_RPC_URL', 'TALLY_THREADS']);

t.test('the pure folders read no clock, randomness or environment', async (t) => {
  const files = PURE_FOLDERS.flatMap(sources);
  t.ok(files.length > 20, `${files.length} files read`);
  t.same(offending(files, CLOCK_OR_CHANCE), []);
});

t.test('the pure files do no I/O', async (t) => {
  t.same(offending(PURE_FILES, IO_IMPORT), []);
});

t.test('production code reads only the documented environment', async (t) => {
  const read = ['engine', 'api', 'replay', 'cli'].flatMap(sources).flatMap(({ file, text }) =>
    [...text.matchAll(/process\.env(?:\.([A-Z_a-z0-9]+)|\[['"]([^'"]+)['"]\])?/g)].map((match) => ({
      file,
      name: match[1] ?? match[2] ?? '(any)',
    })),
  );
  t.ok(read.length >= ENVIRONMENT.size, 'the reads were found');
  t.same(
    read.filter(({ name }) => !ENVIRONMENT.has(name)).map(({ file, name }) => `${file}: ${name}`),
    [],
  );
});

t.test('only the command line ends the process or names an exit code', async (t) => {
  t.same(offending(['engine', 'api', 'replay'].flatMap(sources), /\bprocess\.exit\b|\bexitCode\b/), []);
});

t.test('the command line and the engine throw no plain Error', async (t) => {
  t.same(offending(sources('cli'), /\bthrow new Error\(/), []);
  // An engine invariant is an assert (an AssertionFailure); its user and environment errors are typed.
  t.same(offending(sources('engine'), /\bthrow new Error\(/), []);
});

/** The invariants checked in `files`: assert calls and AssertionFailures thrown where a check is hot. */
const assertCount = (files: Array<{ file: string; text: string }>) =>
  files.reduce((sum, { text }) => sum + (text.match(/\bassert\(|\bnew AssertionFailure\(/g) ?? []).length, 0);

/** Function declarations, methods and arrow functions with a body: what an invariant density is counted over. */
const functionCount = (files: Array<{ file: string; text: string }>) =>
  files.reduce(
    (sum, { text }) =>
      sum +
      (text.match(/^\s*(export )?(async )?function\b|^\s+(async )?\*?[a-zA-Z]\w*\([^)]*\)[^=;]*\{$|=> \{$/gm) ?? [])
        .length,
    0,
  );

t.test('asserts per folder (printed): every folder of the pipeline checks its invariants', async (t) => {
  const folders = [
    ...['chain', 'log', 'reducers', 'state', 'valuation', 'offchain', 'fold', 'tags', 'rollup'].map(
      (f) => `engine/${f}`,
    ),
    'api',
    'replay',
    'cli',
  ];
  for (const folder of folders) {
    const files = sources(folder);
    const asserts = assertCount(files);
    t.comment(`${folder}: ${asserts} asserts over ${functionCount(files)} functions in ${files.length} files`);
  }
  t.ok(assertCount(sources('engine/reducers')) > 0, 'engine/reducers asserts its invariants');
  // Where the folded bytes are made, written and framed, an invariant a function at least (issue 40).
  for (const folder of ['engine/fold', 'engine/state', 'engine/log']) {
    const files = sources(folder);
    const [asserts, functions] = [assertCount(files), functionCount(files)];
    t.ok(asserts >= functions, `${folder}: ${asserts} asserts, at least one per function (${functions})`);
  }
});

t.test('the tree is formatted (npm run format) and no comment runs past 120 columns', async (t) => {
  // Biome checks without writing and exits 1 naming each file it would change.
  const biome = join(root, 'node_modules', '.bin', 'biome');
  let problems = '';
  try {
    execFileSync(biome, ['format', root], { cwd: root, stdio: 'pipe' });
  } catch (error) {
    const { status, stdout, stderr } = error as { status?: number; stdout?: Buffer; stderr?: Buffer };
    problems = `exit ${status}: ${String(stdout ?? '')}${String(stderr ?? '')}`.slice(0, 2000);
  }
  t.equal(problems, '', 'npm run format changes nothing');
  // A formatter cannot break a string, template or regex literal; a longer line must hold one, and a comment never.
  const long = ['engine', 'api', 'replay', 'cli', 'bench', 'test']
    .flatMap(sources)
    .flatMap(({ file, text }) =>
      text
        .split('\n')
        .flatMap((line, i) =>
          line.length > 120 && (/^\s*(\/\/|\*|\/\*)/.test(line) || !/['"`]|^\s*\//.test(line))
            ? [`${file}:${i + 1}`]
            : [],
        ),
    );
  t.same(long, []);
});

t.test('the checks see what they look for', async (t) => {
  const probe = [
    {
      file: 'probe.ts',
      text: "const now = Date.now();\n// Date.now() in a comment\nimport { open } from 'lmdb';\nthrow new Error('x');",
    },
  ];
  t.equal(offending(probe, CLOCK_OR_CHANCE).length, 1, 'a clock read in code, not in a comment');
  t.equal(offending(probe, IO_IMPORT).length, 1);
  t.equal(offending(probe, /\bthrow new Error\(/).length, 1);
  const counted = [
    {
      file: 'counted.ts',
      text:
        'export function a(x: number) {\n  assert(x > 0, "x");\n}\n' +
        'const b = (y: number) => {\n  if (!y) throw new AssertionFailure("y");\n};\n' +
        'class C {\n  m(z: number) {\n    return z;\n  }\n}\n',
    },
  ];
  t.equal(functionCount(counted), 3, 'a function, an arrow with a body and a method');
  t.equal(assertCount(counted), 2, 'an assert and a thrown AssertionFailure');
});
