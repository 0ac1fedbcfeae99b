// The per-key limits of spec 8: 600 requests a minute, 4 in flight of which 2 streams, counted exactly across
// threads; and config.json's limits.
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RATE_LIMITS, limitsOfKey, loadRateLimits } from '../../api/limits/loadRateLimits.js';
import { startWorkerThread } from '../../engine/workerOptions.js';
import { createSharedCountersMemory, sharedKeyCounters } from '../../api/limits/sharedKeyCounters.js';

const counters = () => sharedKeyCounters(createSharedCountersMemory(64, 64 * 600));

t.test('default: the 601st request in a minute is refused with a retry time', async (t) => {
  const limiter = counters();
  const now = 1_000_000;
  let allowed = 0;
  for (let i = 0; i < 600; i++) if (limiter.take('k', 600, now).allowed) allowed++;
  t.equal(allowed, 600, 'the first 600 pass');
  const refused = limiter.take('k', 600, now);
  t.same(refused, { allowed: false, remaining: 0, retryAfterSeconds: 60 });
  t.ok(limiter.take('other', 600, now).allowed, 'another key has its own window');
  t.notOk(limiter.take('k', 600, now + 59_999).allowed, 'still refused within the minute');
  t.ok(limiter.take('k', 600, now + 60_000).allowed, 'allowed once the first request is a minute old');
});

t.test('behavior: remaining counts down from the limit', async (t) => {
  const limiter = counters();
  t.equal(limiter.take('k', 600, 0).remaining, 599);
  t.equal(limiter.take('k', 600, 0).remaining, 598);
  t.equal(limiter.take('k', 600, 60_000).remaining, 599, 'requests older than a minute no longer count');
  t.equal(limiter.take('k', 600, 59_000).remaining, 598, 'a time before the newest counts as the newest');
});

t.test('behavior: four requests in flight, two of them streams', async (t) => {
  const limiter = counters();
  const enter = (stream: boolean) => limiter.enter('k', 600, 4, 2, stream, 0);
  t.ok(enter(true));
  t.ok(enter(true));
  t.notOk(enter(true), 'a third stream is refused');
  t.ok(enter(false));
  t.ok(enter(false));
  t.notOk(enter(false), 'a fifth request is refused');
  limiter.leave('k', true);
  t.ok(enter(true), 'a slot frees when an answer is written');
});

t.test('behavior: a full table gives the slot of a key idle for a minute, never a busy one', async (t) => {
  const limiter = sharedKeyCounters(createSharedCountersMemory(2, 2 * 600));
  t.ok(limiter.take('a', 600, 0).allowed);
  t.ok(limiter.enter('b', 600, 4, 2, false, 0));
  t.throws(
    () => limiter.take('c', 600, 30_000),
    { name: 'LimitsTableFull', retryAfterSeconds: 30 },
    "both keys active in the last minute: a's slot is quiet in 30 s, b's holds a request in flight",
  );
  t.ok(limiter.take('c', 600, 60_000).allowed, "a's slot, idle for a minute, goes to c");
  t.throws(
    () => limiter.take('d', 600, 100_000),
    { name: 'LimitsTableFull', retryAfterSeconds: 20 },
    "c was active in the last minute (quiet in 20 s), and b's slot holds a request in flight",
  );
  t.equal(limiter.take('a', 600, 120_000).remaining, 599, "a comes back, to c's slot, with an empty ring");
});

t.test('behavior: threads count into the same counters, exactly', async (t) => {
  const memory = createSharedCountersMemory(64, 64 * 600);
  const threads = 4;
  const start = new Int32Array(new SharedArrayBuffer(8));
  const results = Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise<number>((resolve, reject) => {
          const thread = startWorkerThread('../fixtures/countersWorker', import.meta.url, {
            memory,
            takes: 400,
            start,
          });
          thread.once('message', resolve);
          thread.once('error', reject);
        }),
    ),
  );
  while (Atomics.load(start, 0) < threads) await new Promise((resolve) => setTimeout(resolve, 5));
  Atomics.store(start, 1, 1);
  Atomics.notify(start, 1);
  const allowed = await results;
  t.equal(
    allowed.reduce((a, b) => a + b, 0),
    600,
    `${threads} threads, 1,600 requests of one key at once: exactly 600 allowed (${allowed.join(', ')})`,
  );
  const limiter = sharedKeyCounters(memory);
  t.notOk(limiter.take('k', 600, Date.now()).allowed, 'and this thread sees the key at its limit');
  t.equal(limiter.enter('k', 600, 4, 2, false, Date.now()), true, 'every thread gave its in-flight slots back');
});

t.test("behavior: a key's fifth request in flight is refused whichever thread takes it", async (t) => {
  const memory = createSharedCountersMemory(64, 64 * 600);
  const go = new Int32Array(new SharedArrayBuffer(8));
  const holders = Array.from({ length: 4 }, () =>
    startWorkerThread('../fixtures/countersWorker', import.meta.url, { memory, hold: true, start: go }),
  );
  const next = (thread: (typeof holders)[number]) =>
    new Promise<unknown>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
    });
  t.same(await Promise.all(holders.map(next)), [true, true, true, true], 'four threads each hold a slot');
  const limiter = sharedKeyCounters(memory);
  t.notOk(limiter.enter('k', 600, 4, 2, false, Date.now()), 'a fifth, from another thread, is refused');
  const left = Promise.all(holders.map(next));
  Atomics.store(go, 1, 1);
  Atomics.notify(go, 1);
  await left;
  t.ok(limiter.enter('k', 600, 4, 2, false, Date.now()), 'once they leave, a slot is free again');
});

t.test(
  "behavior: config.json limits: defaults, a key's fields over the global ones, the longest prefix first",
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-limits-'));
    const config = join(dir, 'config.json');
    t.same(loadRateLimits(config), DEFAULT_RATE_LIMITS, 'no config file: spec 8');
    writeFileSync(config, JSON.stringify({ addresses: {} }));
    t.same(loadRateLimits(config), DEFAULT_RATE_LIMITS, 'no rateLimits: spec 8');
    writeFileSync(
      config,
      JSON.stringify({
        rateLimits: { perMinute: 100, keys: { svc_ab: { inFlight: 8 }, svc_abcd: false, svc_ff: { streams: 4 } } },
      }),
    );
    const limits = loadRateLimits(config);
    t.same(limits.limits, { perMinute: 100, inFlight: 4, streams: 2 });
    const key = (start: string) => start + '0'.repeat(52 - start.length);
    t.same(
      limitsOfKey(limits, key('svc_ab12')),
      { perMinute: 100, inFlight: 8, streams: 2 },
      "a key's fields, the rest global",
    );
    t.equal(limitsOfKey(limits, key('svc_abcd')), null, 'the longer prefix wins');
    t.same(limitsOfKey(limits, key('svc_ff')), { perMinute: 100, inFlight: 4, streams: 4 });
    t.same(limitsOfKey(limits, key('svc_12')), limits.limits, 'other keys: the global limits');
    writeFileSync(config, JSON.stringify({ rateLimits: false }));
    t.same(loadRateLimits(config), { limits: null, keys: [] });
  },
);
