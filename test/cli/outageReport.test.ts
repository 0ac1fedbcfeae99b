// What `tally run` prints while its node is away (cli/createOutageReport.ts): the first failure at once, then one
// line a minute at most however often requests fail, and the return with the outage's length.
import t from 'tap';
import { createOutageReport } from '../../cli/createOutageReport.js';

t.test('default: once at first, then once a minute, then the return', async (t) => {
  const lines: string[] = [];
  let now = 1_700_000_000_000;
  const report = createOutageReport({
    label: 'run',
    maxBackoffMs: 30_000,
    print: (line) => lines.push(line),
    now: () => now,
  });
  report.failed('ECONNREFUSED');
  for (let i = 0; i < 200; i++) {
    now += 1_000;
    report.failed('ECONNREFUSED');
  }
  t.same(lines, [
    'tally run: the node stopped answering (ECONNREFUSED); still serving the folded state, retrying every 30 s at most',
    'tally run: the node has not answered for 1 min 0 s (61 failed attempts; last: ECONNREFUSED)',
    'tally run: the node has not answered for 2 min 0 s (121 failed attempts; last: ECONNREFUSED)',
    'tally run: the node has not answered for 3 min 0 s (181 failed attempts; last: ECONNREFUSED)',
  ]);
  report.recovered({ since: 1_700_000_000, failedAttempts: 201, lastError: 'ECONNREFUSED' });
  t.equal(lines.at(-1), 'tally run: the node answers again after 3 min 20 s (201 failed attempts); following on');
  report.failed('HTTP 502');
  t.equal(
    lines.at(-1),
    'tally run: the node stopped answering (HTTP 502); still serving the folded state, retrying every 30 s at most',
    'a new outage is told again',
  );
});
