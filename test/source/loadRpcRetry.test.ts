// The retry policy of `tally run` from config.json (replay/source/loadRpcRetry.ts): never giving up, the cap as
// configured, and a bad value refused naming the file.
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRpcRetry } from '../../replay/source/loadRpcRetry.js';

const dir = mkdtempSync(join(tmpdir(), 'tally-rpc-retry-'));
const config = (value: unknown) => {
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify(value));
  return path;
};

t.test('default: forever, from 0.5 s up to 30 s', async (t) => {
  t.same(loadRpcRetry(join(dir, 'none.json')), { retries: Infinity, baseMs: 500, maxMs: 30_000 });
  t.same(loadRpcRetry(config({ rpc: { maxBackoffMs: 200 } })), { retries: Infinity, baseMs: 200, maxMs: 200 });
});

t.test('error: a bad rpc section names the file and the field', async (t) => {
  t.throws(() => loadRpcRetry(config({ rpc: { maxBackoffMs: 5 } })), {
    message: /config\.json: rpc\.maxBackoffMs must be an integer from 100 to 3600000/,
  });
  t.throws(() => loadRpcRetry(config({ rpc: { retries: 3 } })), { message: /rpc: unknown field retries/ });
  t.throws(() => loadRpcRetry(config({ rpc: 7 })), { message: /rpc must be an object/ });
});
