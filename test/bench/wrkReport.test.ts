// bench:api reads wrk's `--latency` report: requests/s and the 50th and 99th percentiles, in milliseconds, whatever
// unit wrk picked (it pads units to two characters, so seconds read `1.21s ` with a blank after them).
import t from 'tap';
import { parseWrkReport } from '../../bench/loadGenerator.js';

const report = (p50: string, p99: string, rps: string) =>
  [
    'Running 5s test @ http://127.0.0.1:8080/v1/health',
    '  1 threads and 32 connections',
    '  Thread Stats   Avg      Stdev     Max   +/- Stdev',
    `    Latency   ${p50}   100.00ms   ${p99}   90.00%`,
    '    Req/Sec    26.00     10.00    40.00     80.00%',
    '  Latency Distribution',
    `     50%  ${p50}`,
    `     75%  ${p50}`,
    `     90%  ${p99}`,
    `     99%  ${p99}`,
    '  130 requests in 5.00s, 30.00KB read',
    `Requests/sec:  ${rps}`,
    'Transfer/sec:      6.00KB',
    '',
  ].join('\n');

t.test('unit: microseconds and milliseconds', async (t) => {
  t.same(parseWrkReport(report('812.00us', '4.25ms', '38511.20')), { rps: 38511.2, p50: 0.81, p99: 4.25 });
});

t.test('unit: a latency of a second or more, its unit padded with a blank', async (t) => {
  t.same(parseWrkReport(report('1.21s ', '2.00s ', '26.00')), { rps: 26, p50: 1210, p99: 2000 });
});

t.test('unit: minutes', async (t) => {
  t.same(parseWrkReport(report('59.00s ', '1.50m ', '1.00')), { rps: 1, p50: 59_000, p99: 90_000 });
});

t.test('unit: a report without the latency distribution is refused, naming what is missing', async (t) => {
  const plain = report('1.00ms', '2.00ms', '10.00').replace(/ {5}\d+%.*\n/g, '');
  t.throws(() => parseWrkReport(plain), /no 50% latency/);
  t.throws(() => parseWrkReport('garbage'), /no requests\/sec/);
});
