// The board's answers on a demo venue (stats in every period, categories, leaderboard pages in every sort),
// recorded in test/fixtures/golden/boardAnswers.ndjson.gz before issue 22 item 8 changed which markets a window
// takes in (docs/design.md 4). Every byte must be as recorded, except the differences named and counted below.
// TALLY_RECORD_GOLDEN=1 rewrites the file (test/fixtures/goldenFile.ts).
import t from 'tap';
import { startServer } from '../../cli/commands/serveCommand.js';
import { createDemoData } from '../fixtures/demoData.js';
import { checkAgainstGolden, recordGoldenIfAsked, type Row } from '../fixtures/goldenFile.js';
import { chooseWallets, type RecordedAnswer } from '../fixtures/walletAnswers.js';
import { createKeys } from '../fixtures/apiKey.js';

const GOLDEN = new URL('../fixtures/golden/boardAnswers.ndjson.gz', import.meta.url);
const FILLS = 8000;
const SEED = 9;
const WALLETS = 60;
const PERIODS = ['all', '1y', '90d', '30d', '7d', '1d'];
const SORTS = ['totalPnl', 'realizedPnl', 'volume', 'roi'];

const { data, key } = await createDemoData(FILLS, SEED);
const keys = [key, ...(await createKeys(data, 3))];
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());

const answers: RecordedAnswer[] = [];
let request = 0;
async function record(path: string): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    headers: { authorization: `Bearer ${keys[request++ % keys.length]}` },
  });
  answers.push({ path, status: response.status, body: await response.text() });
}
for (const wallet of await chooseWallets(data, WALLETS)) {
  for (const period of PERIODS) await record(`/v1/wallets/${wallet}/stats?period=${period}`);
  for (const period of ['all', '7d']) await record(`/v1/wallets/${wallet}/categories?period=${period}`);
}
for (const period of ['all', '1y', '7d']) {
  for (const sort of SORTS) await record(`/v1/leaderboard?period=${period}&sort=${sort}&limit=100`);
}

recordGoldenIfAsked(t, GOLDEN, answers);

// The named changes (issue 22 item 8, docs/design.md 4: a window takes in the markets decided inside it and, when it
// ends now, the open markets with an event inside it; every sum covers those markets):
// - lifetime rows: an open market's settled PnL (its partial exits) moves from realized to unrealized; the total
//   and every other figure are unchanged;
// - windowed rows: what the decided markets give (realized PnL, decided, won, lost, wins, losses, best, worst,
//   hold) is unchanged; the other sums now take in the open markets traded in the window and leave out markets
//   merely traded in it; a window holding all of a wallet's activity gives its lifetime row exactly.
const DECIDED_FIELDS = [
  'wallet',
  'category',
  'realizedPnl',
  'marketsDecided',
  'marketsWon',
  'marketsLost',
  'winRate',
  'profitFactor',
  'profitFactorInfinite',
  'winsUsd',
  'lossesUsd',
  'avgWin',
  'avgLoss',
  'best',
  'worst',
  'avgHoldSeconds',
  'updatedAt',
];
const changes = { lifetimeOpenPnlUnrealized: 0, windowTakesOpenMarkets: 0, windowEqualsLifetime: 0 };
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Why a row may differ from its recording, or the first difference no change explains. */
function explainRow(lifetime: boolean, recorded: Row, current: Row): string | null {
  if (same(recorded, current)) return null;
  if (lifetime) {
    for (const field of Object.keys(recorded)) {
      if (field === 'realizedPnl' || field === 'unrealizedPnl' || same(recorded[field], current[field])) continue;
      return `lifetime field ${field}: ${JSON.stringify(recorded[field])} -> ${JSON.stringify(current[field])}`;
    }
    if (!close(current.totalPnl as number, (current.realizedPnl as number) + (current.unrealizedPnl as number)))
      return 'total is not realized + unrealized';
    if ((current.open as { count: number }).count === 0) return 'realized moved in a wallet with no open market';
    changes.lifetimeOpenPnlUnrealized++;
    return null;
  }
  for (const field of DECIDED_FIELDS) {
    if (!same(recorded[field], current[field]))
      return `window field ${field}: ${JSON.stringify(recorded[field])} -> ${JSON.stringify(current[field])}`;
  }
  changes.windowTakesOpenMarkets++;
  return null;
}

/** Rows keyed by `key`; a row on one side only must have no decided market (the decided markets are the same). */
function explainRows(lifetime: boolean, recorded: Row[], current: Row[], key: string): string | null {
  const currentByKey = new Map(current.map((row) => [row[key], row]));
  const recordedKeys = new Set(recorded.map((row) => row[key]));
  if (lifetime && recorded.length !== current.length) return 'row count';
  for (const row of recorded) {
    const now = currentByKey.get(row[key]);
    if (!now) {
      if (lifetime || row.marketsDecided !== 0) return `row ${String(row[key])} gone`;
      continue;
    }
    const why = explainRow(lifetime, row, now);
    if (why !== null) return `${String(row[key])}: ${why}`;
  }
  const added = current.find((row) => !recordedKeys.has(row[key]) && row.marketsDecided !== 0);
  return added ? `row ${String(added[key])} added with decided markets` : null;
}

function explain(path: string, recorded: Row, current: Row): string | null {
  const lifetime = path.includes('period=all');
  const outside = (answer: Row) => ({ ...answer, row: null, rows: null, total: lifetime ? answer.total : null });
  if (!same(outside(recorded), outside(current))) return 'outside the rows';
  if (path.includes('/stats')) return explainRow(lifetime, recorded.row as Row, current.row as Row);
  if (path.includes('/categories'))
    return explainRows(lifetime, recorded.rows as Row[], current.rows as Row[], 'category');
  const recordedRows = recorded.rows as Row[];
  const currentRows = current.rows as Row[];
  // The lifetime order by total, volume or roi is unchanged; other orders may move, so rows are matched by wallet
  // among those on both first pages.
  if (
    lifetime &&
    !path.includes('sort=realizedPnl') &&
    !same(
      recordedRows.map((r) => r.wallet),
      currentRows.map((r) => r.wallet),
    )
  )
    return 'lifetime order';
  const both = new Set(currentRows.map((row) => row.wallet));
  return explainRows(
    lifetime,
    recordedRows.filter((row) => both.has(row.wallet)),
    currentRows.filter((row) => recordedRows.some((r) => r.wallet === row.wallet)),
    'wallet',
  );
}

t.test('default: every board answer is as recorded, but for the named changes', async (t) => {
  checkAgainstGolden(t, GOLDEN, answers, explain);
  // A window holding all of a wallet's activity gives its lifetime row (the stats answers come all, then windows).
  const lifetimeRows = new Map<string, Row>();
  const unequal: string[] = [];
  for (const answer of answers.filter((a) => a.path.includes('/stats'))) {
    const current = JSON.parse(answer.body) as Row;
    const row = current.row as Row;
    if (answer.path.endsWith('period=all')) lifetimeRows.set(row.wallet as string, row);
    else if ((current.from as number) <= (lifetimeRows.get(row.wallet as string)!.firstActivityAt as number)) {
      if (same(row, lifetimeRows.get(row.wallet as string))) changes.windowEqualsLifetime++;
      else unequal.push(answer.path);
    }
  }
  t.same(unequal.slice(0, 5), [], `${unequal.length} windows hold all activity but differ from the lifetime row`);
  t.comment(`named changes: ${JSON.stringify(changes)}`);
  t.ok(changes.lifetimeOpenPnlUnrealized > 0, "lifetime: open markets' partial exits are unrealized");
  t.ok(changes.windowTakesOpenMarkets > 0, 'windows take in the open markets traded in them');
  t.ok(changes.windowEqualsLifetime > 0, 'windows holding all activity equal the lifetime');
});
