// The per-key limits of spec 8: 600 requests a minute, 4 in flight of which 2 streams; and config.json's limits.
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RATE_LIMITS, limitsOfKey, loadRateLimits } from '../../api/limits/loadRateLimits.js';
import { createInFlightLimiter } from '../../api/limits/createInFlightLimiter.js';
import { createRateLimiter } from '../../api/limits/createRateLimiter.js';

t.test('default: the 601st request in a minute is refused with a retry time', async (t) => {
  const limiter = createRateLimiter();
  const now = 1_000_000;
  let allowed = 0;
  for (let i = 0; i < 600; i++) if (limiter.take('k', now).allowed) allowed++;
  t.equal(allowed, 600, 'the first 600 pass');
  const refused = limiter.take('k', now);
  t.same(refused, { allowed: false, remaining: 0, retryAfterSeconds: 60 });
  t.ok(limiter.take('other', now).allowed, 'another key has its own window');
  t.notOk(limiter.take('k', now + 59_999).allowed, 'still refused within the minute');
  t.ok(limiter.take('k', now + 60_000).allowed, 'allowed once the first request is a minute old');
});

t.test('behavior: remaining counts down from the limit', async (t) => {
  const limiter = createRateLimiter();
  t.equal(limiter.limit, 600);
  t.equal(limiter.take('k', 0).remaining, 599);
  t.equal(limiter.take('k', 0).remaining, 598);
  t.equal(limiter.take('k', 60_000).remaining, 599, 'requests older than a minute no longer count');
});

t.test('behavior: four requests in flight, two of them streams', async (t) => {
  const limiter = createInFlightLimiter();
  t.ok(limiter.enter('k', true));
  t.ok(limiter.enter('k', true));
  t.notOk(limiter.enter('k', true), 'a third stream is refused');
  t.ok(limiter.enter('k', false));
  t.ok(limiter.enter('k', false));
  t.notOk(limiter.enter('k', false), 'a fifth request is refused');
  limiter.leave('k', true);
  t.ok(limiter.enter('k', true), 'a slot frees when an answer is written');
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
