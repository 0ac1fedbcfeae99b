// /metrics (issue 22, item 9) against the real server on 127.0.0.1: the Prometheus text format parsed line by
// line; request counters and latency histograms that grow with requests; the fold's block, events, lag (as
// /v1/health says) and rate while another process folds the directory; no key from this machine, one when the
// request was forwarded.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../cli/commands/serveCommand.js';
import { createFoldRate } from '../../api/createFoldRate.js';
import { createDemoInputs, emptyDataDir } from '../fixtures/demoVenue.js';
import { runTally, runTallyAsync } from '../fixtures/runTally.js';
import { createKey } from '../fixtures/apiKey.js';

const inputs = await createDemoInputs(3_000, 9);
// The first half of the capture, cut between blocks: the rest is folded while the server runs.
const lines = readFileSync(inputs.capture, 'utf8').trim().split('\n');
const blockOf = (line: string) => (JSON.parse(line) as { blockNumber: string }).blockNumber;
let cut = Math.floor(lines.length / 2);
while (blockOf(lines[cut]!) === blockOf(lines[cut - 1]!)) cut++;
const half = join(inputs.dir, 'half.ndjson');
writeFileSync(half, lines.slice(0, cut).join('\n') + '\n');
const data = emptyDataDir(inputs, 'data');
const first = runTally(['ingest', '--data', data, '--capture', half, '--metadata', inputs.metadata]);
if (first.code !== 0) throw new Error(first.stderr);
const key = await createKey(data);
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const base = `http://127.0.0.1:${server.port}`;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The text exposition format 0.0.4, strictly: every line a HELP, a TYPE or a sample of a declared family. */
function parseExposition(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  if (!text.endsWith('\n')) throw new Error('the text does not end with a line feed');
  for (const line of text.slice(0, -1).split('\n')) {
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      if (types.has(type[1]!)) throw new Error(`${type[1]} declared twice`);
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* \S/.test(line)) continue;
    const sample =
      /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*)\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`not a sample: ${line}`);
    const [, name, labelText, valueText] = sample as unknown as [string, string, string | undefined, string];
    const value = valueText === '+Inf' ? Infinity : valueText === '-Inf' ? -Infinity : Number(valueText);
    if (Number.isNaN(value) && valueText !== 'NaN') throw new Error(`not a number: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, label, labelValue] of (labelText ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[label!] = labelValue!;
    const family = types.get(name) === undefined ? name.replace(/_(bucket|sum|count)$/, '') : name;
    if (!types.has(family)) throw new Error(`${name} has no TYPE before it`);
    samples.push({ name, labels, value });
  }
  return { types, samples };
}

async function scrape(
  headers: Record<string, string> = {},
): Promise<{ types: Map<string, string>; samples: Sample[] }> {
  const response = await fetch(`${base}/metrics`, { headers });
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  if (response.headers.get('content-type') !== 'text/plain; version=0.0.4; charset=utf-8')
    throw new Error(`content type ${response.headers.get('content-type')}`);
  return parseExposition(await response.text());
}

/** The one sample of `name` whose labels include `labels`; undefined when none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} samples`);
  return found[0]?.value;
}

async function health(): Promise<{
  block: number;
  sourceHead: number;
  lagBlocks: number;
  lagSeconds: number;
  log: { events: number };
}> {
  return (await fetch(`${base}/v1/health`, { headers: { authorization: `Bearer ${key}` } })).json() as never;
}

t.test('default: /metrics from this machine, without a key, in the text format', async (t) => {
  const { types, samples } = await scrape();
  for (const [name, type] of [
    ['tally_fold_block', 'gauge'],
    ['tally_fold_events', 'gauge'],
    ['tally_fold_blocks', 'gauge'],
    ['tally_fold_lag_blocks', 'gauge'],
    ['tally_fold_lag_seconds', 'gauge'],
    ['tally_fold_rate_events_per_second', 'gauge'],
    ['tally_fold_rate_blocks_per_second', 'gauge'],
    ['tally_http_requests_total', 'counter'],
    ['tally_http_request_duration_seconds', 'histogram'],
    ['tally_answer_cache_hits_total', 'counter'],
    ['process_resident_memory_bytes', 'gauge'],
    ['process_cpu_seconds_total', 'counter'],
  ])
    t.equal(types.get(name!), type, `${name} is a ${type}`);
  t.ok(valueOf(samples, 'process_resident_memory_bytes')! > 10 * 2 ** 20, 'RSS in bytes');
  const answer = await health();
  t.equal(valueOf(samples, 'tally_fold_block'), answer.block, 'the folded block, as health says');
  t.equal(valueOf(samples, 'tally_fold_events'), answer.log.events, 'its events');
  t.equal(valueOf(samples, 'tally_fold_lag_blocks'), answer.lagBlocks);
  t.equal(valueOf(samples, 'tally_source_head_block'), answer.sourceHead);
  t.ok(valueOf(samples, 'tally_fold_blocks')! > 0, 'blocks folded');
  const head = await fetch(`${base}/metrics`, { method: 'HEAD' });
  t.same([head.status, await head.text()], [200, ''], 'HEAD too');
  const gzipped = await fetch(`${base}/metrics`, { headers: { 'accept-encoding': 'gzip' } });
  t.equal(gzipped.headers.get('content-encoding'), 'gzip', 'gzipped when the scraper accepts it');
  t.match(await gzipped.text(), /^# HELP tally_build_info /m, 'the same text inside');
});

t.test('behavior: request counters and latency grow with requests, by route and status', async (t) => {
  const before = (await scrape()).samples;
  const authorization = { authorization: `Bearer ${key}` };
  for (let i = 0; i < 3; i++) await (await fetch(`${base}/v1/health`, { headers: authorization })).arrayBuffer();
  await (await fetch(`${base}/v1/health`)).arrayBuffer();
  await (await fetch(`${base}/v1/nope`, { headers: authorization })).arrayBuffer();
  for (let i = 0; i < 2; i++)
    await (await fetch(`${base}/v1/leaderboard?limit=5`, { headers: authorization })).arrayBuffer();
  const after = (await scrape()).samples;
  const grew = (name: string, labels: Record<string, string>) =>
    (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);
  const health200 = { route: '/v1/health', status: '200' };
  t.equal(grew('tally_http_requests_total', health200), 3, 'three health answers');
  t.equal(grew('tally_http_requests_total', { route: '/v1/health', status: '401' }), 1, 'one refused');
  t.equal(grew('tally_http_requests_total', { route: 'other', status: '404' }), 1, 'an unknown path');
  t.equal(grew('tally_http_request_duration_seconds_count', health200), 3, 'the histogram counts them');
  t.equal(grew('tally_http_request_duration_seconds_bucket', { ...health200, le: '+Inf' }), 3);
  t.ok(grew('tally_http_request_duration_seconds_sum', health200) > 0, 'and sums their time');
  t.equal(grew('tally_answer_cache_hits_total', {}), 1, 'the second leaderboard page came from the cache');
  t.equal(grew('tally_http_requests_total', { route: '/metrics', status: '200' }), 1, 'the scrape before is counted');
  // Buckets are cumulative: never fewer requests under a larger bound.
  const buckets = after.filter(
    (s) =>
      s.name === 'tally_http_request_duration_seconds_bucket' &&
      s.labels.route === '/v1/health' &&
      s.labels.status === '200',
  );
  t.ok(buckets.length > 10);
  t.same(
    buckets.map((s) => s.value),
    [...buckets.map((s) => s.value)].sort((a, b) => a - b),
    'cumulative buckets',
  );
  t.equal(buckets.at(-1)!.labels.le, '+Inf');
});

t.test("behavior: the fold's progress and rate while another process folds the directory", async (t) => {
  const before = (await scrape()).samples;
  t.equal(valueOf(before, 'tally_fold_rate_events_per_second'), 0, 'nothing folds yet');
  const rest = await runTallyAsync(['ingest', '--data', data, '--capture', inputs.capture]);
  t.equal(rest.code, 0, rest.stderr);
  const after = (await scrape()).samples;
  const answer = await health();
  t.ok(valueOf(after, 'tally_fold_block')! > valueOf(before, 'tally_fold_block')!, 'the block moved');
  t.equal(valueOf(after, 'tally_fold_block'), answer.block);
  t.equal(valueOf(after, 'tally_fold_events'), answer.log.events);
  t.ok(valueOf(after, 'tally_fold_rate_events_per_second')! > 0, 'events folded a second over the last minute');
  t.ok(valueOf(after, 'tally_fold_rate_blocks_per_second')! > 0, 'blocks a second');
});

t.test('behavior: a forwarded request needs a key', async (t) => {
  for (const forwarded of [{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }] as Array<
    Record<string, string>
  >) {
    const refused = await fetch(`${base}/metrics`, { headers: forwarded });
    t.equal(refused.status, 401, JSON.stringify(forwarded));
    t.same(await refused.json(), { error: 'unknown or revoked API key' });
    const keyed = await fetch(`${base}/metrics`, { headers: { ...forwarded, authorization: `Bearer ${key}` } });
    t.equal(keyed.status, 200, 'with a key');
    t.match(await keyed.text(), /^# HELP /);
  }
});

t.test('behavior: the fold rate over the last minute of samples', async (t) => {
  const rate = createFoldRate();
  t.same(rate.rate(0, { block: 10, events: 100 }), { blocksPerSecond: 0, eventsPerSecond: 0 }, 'no sample yet');
  rate.sample(0, { block: 10, events: 100 });
  t.same(rate.rate(10_000, { block: 30, events: 600 }), { blocksPerSecond: 2, eventsPerSecond: 50 });
  for (let ms = 5_000; ms <= 90_000; ms += 5_000) rate.sample(ms, { block: 10 + ms / 1000, events: 100 });
  t.same(
    rate.rate(90_000, { block: 100, events: 100 }),
    { blocksPerSecond: 1, eventsPerSecond: 0 },
    'only the last minute counts',
  );
  t.same(
    rate.rate(90_000, { block: 0, events: 0 }),
    { blocksPerSecond: 0, eventsPerSecond: 0 },
    'a rewind is no negative rate',
  );
});
