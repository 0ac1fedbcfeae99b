// Heavy requests (api/heavy: a leaderboard over a window sums every wallet's market results) go to the serving
// thread's heavy-work thread, whose queue is bounded: past HEAVY_QUEUE waiting, a request is refused at once with
// 503 and Retry-After 1, while cheap requests are answered meanwhile; the refused one is answered when asked again.
import t from 'tap';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';
import { startServer } from '../../cli/commands/serveCommand.js';
import { ERROR } from '../../api/errorTexts.js';
import { createDemoData } from '../fixtures/demoData.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { openOffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { HEAVY_QUEUE } from '../../api/apiLimits.js';

const { data, key } = await createDemoData(4_000, 12);
// One key sends them all at once: its limits are lifted (they would refuse the fifth in flight first).
const config = join(data, 'config.json');
writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), rateLimits: false }));
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());

/** Every request written on its own connection in one tick; the answers as written, in the order sent. */
async function burst(paths: string[]): Promise<string[]> {
  const sockets = await Promise.all(
    paths.map(
      () =>
        new Promise<ReturnType<typeof connect>>((resolve) => {
          const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
        }),
    ),
  );
  const answers = sockets.map(
    (socket) =>
      new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString('latin1')));
        socket.on('close', () => resolve(text));
      }),
  );
  sockets.forEach((socket, i) =>
    socket.write(`GET ${paths[i]} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\nconnection: close\r\n\r\n`),
  );
  return Promise.all(answers);
}

t.test('behavior: past the heavy queue a windowed leaderboard is a 503 with Retry-After 1', async (t) => {
  const count = HEAVY_QUEUE + 12;
  // Windows never asked before, so none is cached; a cheap request sent among them.
  const paths = Array.from({ length: count }, (_, i) => `/v1/leaderboard?from=${1_000 + i}&limit=50`);
  paths.splice(count / 2, 0, '/v1/health');
  const texts = await burst(paths);
  const statuses = texts.map((text) => Number(text.slice(9, 12)));
  t.equal(statuses[count / 2], 200, 'the cheap request is answered');
  const boards = statuses.filter((_, i) => i !== count / 2);
  const refused = texts.filter((text, i) => i !== count / 2 && text.startsWith('HTTP/1.1 503'));
  const answered = boards.filter((s) => s === 200).length;
  t.ok(answered >= HEAVY_QUEUE, `at least the queue's worth answered (${answered} of ${boards.length})`);
  t.ok(refused.length >= 1, `the rest refused (${refused.length})`);
  t.ok(
    boards.every((s) => s === 200 || s === 503),
    'every board either answered or refused',
  );
  for (const text of refused) {
    t.match(text, /\r\nretry-after: 1\r\n/i);
    t.ok(text.endsWith(JSON.stringify({ error: ERROR.heavyBusy })), 'the busy text');
  }
  const again = paths[statuses.indexOf(503)]!;
  const [retry] = await burst([again]);
  t.ok(retry!.startsWith('HTTP/1.1 200'), 'asked again once the queue drained, it is answered');
});

t.test('regression: over stores its starter opened read-only, the heavy-work thread still answers', async (t) => {
  // The heavy-work thread opens the state read-only: a read-write opening of the environment a read-only server
  // shared in this process failed ("No transaction to renew"), and every heavy request was a 500.
  // A copy: this process has the first directory's environment open read-write already, and would share it.
  const copy = `${data}-read-only`;
  cpSync(data, copy, { recursive: true });
  const stores = {
    store: openStateStore({ dir: join(copy, 'state'), readOnly: true }),
    offchain: openOffchainStore({ dir: join(copy, 'offchain') }),
  };
  const readOnly = await startServer({ data: copy, host: '127.0.0.1', port: 0, stores });
  t.teardown(() => readOnly.closeAll());
  const health = await fetch(`http://127.0.0.1:${readOnly.port}/v1/health`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const { blockTs } = (await health.json()) as { blockTs: number };
  for (const path of [
    '/v1/leaderboard?from=1&limit=5',
    `/v1/fills?markets=${'0x' + 'ab'.repeat(32)}&from=${blockTs - 600_000}&to=${blockTs + 1}`,
  ]) {
    const response = await fetch(`http://127.0.0.1:${readOnly.port}${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    t.equal(response.status, 200, path);
    await response.arrayBuffer();
  }
});
