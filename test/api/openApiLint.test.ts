// The OpenAPI document as client generators read it (issue 25): `redocly lint` with the recommended rules finds
// no error and no warning in what the real server serves; every operation has its own operationId.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../cli/commands/serveCommand.js';
import { createDemoData } from '../fixtures/demoData.js';
import { processTempDir } from '../fixtures/processTempDir.js';
import { ROUTES } from '../../api/routes/routeTable.js';

const REDOCLY = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));
const CONFIG = fileURLToPath(new URL('../fixtures/redocly.yaml', import.meta.url));

const { data } = await createDemoData(4_000, 12);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const document: any = await (await fetch(`http://127.0.0.1:${server.port}/v1/openapi.json`)).json();

t.test('default: redocly lint (recommended rules) reports no error and no warning', async (t) => {
  const file = join(processTempDir('tally-openapi-'), 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  const lint = spawnSync(process.execPath, [REDOCLY, 'lint', file, '--config', CONFIG, '--format=json'], {
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  t.equal(lint.status, 0, `redocly exits 0: ${lint.stderr.slice(-400)}`);
  const { problems, totals } = JSON.parse(lint.stdout);
  t.same(
    problems.map((p: { ruleId: string; message: string }) => `${p.ruleId}: ${p.message}`),
    [],
    'no problem',
  );
  t.same(totals, { errors: 0, warnings: 0, ignored: 0 });
});

t.test('default: every operation has its own operationId; the servers and the license', async (t) => {
  const operations = Object.values(document.paths).map((path: any) => path.get);
  const ids = operations.map((operation: any) => operation.operationId);
  // A route claimed by its parameters is described in the operation of its path's other route.
  const claimed = operations.flatMap((operation: any) =>
    (operation['x-tally-claimed-by'] ?? []).map((claim: any) => claim.operationId),
  );
  t.same(claimed, ['getVenueLeaderboard'], "the Data API's leaderboard, on tally's path");
  // The document's own route is not in it.
  t.same(
    [...ids, ...claimed].sort(),
    ROUTES.map((route) => route.operationId).sort(),
    'every route, by its operationId',
  );
  t.ok(
    ids.every((id: unknown) => typeof id === 'string' && /^(get|search)[A-Z]\w+$/.test(id)),
    'each a method name',
  );
  t.equal(new Set(ids).size, ids.length, 'no two alike');
  t.same(document.servers, [{ url: '/', description: 'the server this document was read from' }]);
  t.match(document.info.license, { name: 'Proprietary', identifier: /^LicenseRef-/ });
});
