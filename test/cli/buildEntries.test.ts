// The build (cli/build.mjs) bundles the command line and each thread's module into dist/, the rest in shared chunks:
// a thread started from a module the build does not know as an entry would find no file there, and only the built
// command would fail. Every module a thread is started from is one of THREAD_ENTRIES, and the install's build has
// them all; `npx tally` is a link in node_modules/.bin (no `bin` in package.json: see cli/build.mjs).
import t from 'tap';
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { THREAD_ENTRIES, buildDir, isBuildCurrent } from '../../cli/buildPaths.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

function threadModules(): string[] {
  const found = new Set<string>();
  for (const dir of ['cli', 'engine', 'api', 'replay'])
    for (const file of readdirSync(join(root, dir), { recursive: true }).map(String)) {
      if (!file.endsWith('.ts')) continue;
      const text = readFileSync(join(root, dir, file), 'utf8');
      for (const match of text.matchAll(/(?:workerOptions|startWorkerThread)\(\s*'([^']+)'/g)) found.add(match[1]!);
    }
  return [...found].sort();
}

t.test('every module a thread starts from is an entry of the build', async (t) => {
  const modules = threadModules();
  t.ok(modules.length >= 5, `${modules.length} thread modules found`);
  t.same(modules, [...THREAD_ENTRIES].sort());
  for (const entry of THREAD_ENTRIES) t.ok(existsSync(join(root, `${entry}.ts`)), `${entry}.ts exists`);
});

t.test(
  "the install's build holds every entry at its path",
  { skip: !isBuildCurrent() && 'no current build' },
  async (t) => {
    for (const entry of ['cli/main', ...THREAD_ENTRIES])
      t.ok(existsSync(new URL(`${entry}.js`, buildDir)), `dist/${entry}.js`);
  },
);

t.test('npx tally runs cli/tally.mjs through node_modules/.bin', async (t) => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin?: unknown };
  t.equal(manifest.bin, undefined, 'no bin: npx would install the project into its cache to run one');
  t.equal(readlinkSync(join(root, 'node_modules/.bin/tally')), '../../cli/tally.mjs');
});
