// The route table's types hold (api/routes/route.ts): tsc refuses a handler whose answer its schema does not allow,
// and one reading a query parameter its route does not declare; the same route done right compiles. The fixtures
// are outside the project's own compilation (tsconfig.json leaves their folder out).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const fixtures = join(root, 'test', 'fixtures', 'compileErrors');

/** tsc's output over the project's options and one fixture alone (empty when it compiles). */
function compile(fixture: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tally-route-types-'));
  try {
    const config = join(dir, 'tsconfig.json');
    // Types are found from the config's folder: this one is outside the project, so it names the project's.
    const tsconfig = {
      extends: join(root, 'tsconfig.json'),
      compilerOptions: { typeRoots: [join(root, 'node_modules', '@types')] },
      include: [],
      files: [join(fixtures, fixture)],
    };
    writeFileSync(config, JSON.stringify(tsconfig));
    const run = spawnSync(process.execPath, [tsc, '-p', config, '--pretty', 'false'], { encoding: 'utf8' });
    return `${run.stdout}${run.stderr}`.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

t.test('a route done right compiles', async (t) => {
  t.equal(compile('rightAnswer.ts'), '');
});

t.test('a handler answering what its schema does not allow is a compile error, at the handler', async (t) => {
  const output = compile('wrongAnswer.ts');
  t.match(output, /wrongAnswer\.ts\(14,\d+\): error TS2322/, 'the handler line');
  t.match(output, /Type 'string' is not assignable to type 'number'/, 'the rows of text');
  t.equal(output.split('\n').filter((line) => line.includes('error TS')).length, 1, 'that error alone');
});

t.test('a handler reading an undeclared query parameter is a compile error', async (t) => {
  const output = compile('undeclaredParam.ts');
  t.match(output, /undeclaredParam\.ts\(14,\d+\): error TS\d+: .*Property 'offset' does not exist/);
});
