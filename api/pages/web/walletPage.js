// A wallet (/wallet/{wallet}): headline figures for a window (1d, 7d, 30d, all), its cumulative PnL over time,
// open and closed positions, trades, categories, tags and profile, each from its /v1 answer.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { getJson } from './api.js';
import { DataApiLinks } from './dataApiLinks.js';
import { ErrorNote } from './errorNote.js';
import { axisUsd, count, percent, price, shares, sign, time, usd } from './format.js';
import { html } from './html.js';
import { LineChart } from './lineChart.js';
import { marketLink, outcomeName } from './links.js';
import { PagedTable } from './pagedTable.js';
import { positionKey, tradeKey } from './rowKeys.js';
import { useAnswer, useLoaded } from './useAnswer.js';
import { walletNames } from './walletNames.js';

const WINDOWS = ['1d', '7d', '30d', 'all'];
const PAGE_ROWS = 25;
/** The closed positions the PnL chart reads at most (2,500 a request). */
const CHART_ROWS = 50_000;

const signed = (value) => html`<span class=${sign(value)}>${usd(value)}</span>`;

/** A headline figure; data-value holds the API's number as given, for the tests. */
function Figure({ label, value, name, raw }) {
  return html`<div class="figure" data-figure=${name} data-value=${raw}>
    <span class="label">${label}</span><b>${value}</b>
  </div>`;
}

function Headline({ row }) {
  return html`<div class="figures">
    <${Figure} name="totalPnl" label="Total PnL" value=${signed(row.totalPnl)} raw=${row.totalPnl} />
    <${Figure} name="realizedPnl" label="Realized" value=${signed(row.realizedPnl)} raw=${row.realizedPnl} />
    <${Figure} name="unrealizedPnl" label="Unrealized" value=${signed(row.unrealizedPnl)} raw=${row.unrealizedPnl} />
    <${Figure} name="volume" label="Volume" value=${usd(row.volume)} raw=${row.volume} />
    <${Figure} name="roi" label="ROI" value=${percent(row.roi)} raw=${row.roi} />
    <${Figure} name="winRate" label="Win rate" value=${percent(row.winRate)} raw=${row.winRate} />
    <${Figure} name="markets" label="Markets won / lost" value=${`${count(row.marketsWon)} / ${count(row.marketsLost)}`} />
    <${Figure} name="fills" label="Fills" value=${count(row.fills)} raw=${row.fills} />
    <${Figure} name="open" label="Open value" value=${`${usd(row.open.value)} (${count(row.open.count)})`} />
    <${Figure} name="fees" label="Fees" value=${usd(row.fees)} raw=${row.fees} />
  </div>
  <p class="muted">
    ${row.best && html`Best: ${marketLink(row.best.conditionId, row.best.question)} ${signed(row.best.pnl)}. `}
    ${row.worst && html`Worst: ${marketLink(row.worst.conditionId, row.worst.question)} ${signed(row.worst.pnl)}.`}
  </p>`;
}

/** Every closed position's exit time and PnL, oldest first (up to CHART_ROWS). */
async function closedPnl(wallet) {
  const exits = [];
  let offset = 0;
  while (offset !== null && offset < CHART_ROWS) {
    const page = await getJson(`/wallets/${wallet}/closed-positions`, { limit: 2500, offset, sort: 'exit' });
    for (const row of page.rows) exits.push([row.exitAt, row.settledPnl]);
    offset = page.next;
  }
  return exits.reverse();
}

function PnlChart({ wallet, from }) {
  const { answer: exits, error } = useLoaded(wallet, () => closedPnl(wallet));
  const data = useMemo(() => {
    // One point per exit time: a market's two legs exit at its resolution together, a loss and a gain.
    const times = [];
    const totals = [];
    let total = 0;
    for (const [exitAt, pnl] of exits ?? []) {
      if (exitAt < from) continue;
      total += pnl;
      if (times[times.length - 1] !== exitAt) times.push(exitAt);
      totals[times.length - 1] = Math.round(total * 100) / 100;
    }
    return { times, series: [{ label: 'Cumulative PnL', values: totals, format: usd, axis: axisUsd }] };
  }, [exits, from]);
  if (error) return html`<${ErrorNote} error=${error} />`;
  if (exits === null) return html`<p class="muted">loading closed positions…</p>`;
  return html`<${LineChart} name="pnl" times=${data.times} series=${data.series} />`;
}

const positionColumns = (open) => [
  { label: 'Market', cell: (row) => marketLink(row.conditionId, row.market?.question) },
  { label: 'Outcome', cell: (row) => outcomeName(row.market, row.outcomeIndex) },
  ...(open
    ? [
        { label: 'Shares', num: true, cell: (row) => shares(row.shares) },
        { label: 'Avg price', num: true, cell: (row) => price(row.avgPrice) },
        { label: 'Mark', num: true, cell: (row) => price(row.mark) },
        { label: 'Value', num: true, cell: (row) => usd(row.value) },
        { label: 'Unrealized', num: true, cell: (row) => signed(row.unrealizedPnl) },
      ]
    : [
        { label: 'Exit', cell: (row) => time(row.exitAt) },
        { label: 'Invested', num: true, cell: (row) => usd(row.invested) },
        { label: 'Entry', num: true, cell: (row) => price(row.entryPrice) },
        { label: 'Exit price', num: true, cell: (row) => price(row.avgExitPrice) },
      ]),
  { label: 'PnL', num: true, cell: (row) => signed(row.settledPnl) },
  { label: 'PnL %', num: true, cell: (row) => percent(row.pnlPct) },
];

const tradeColumns = [
  { label: 'Time', cell: (row) => time(row.ts) },
  { label: 'Market', cell: (row) => marketLink(row.conditionId, row.market.question) },
  { label: 'Outcome', cell: (row) => row.market.outcome },
  { label: 'Side', cell: (row) => html`<span class=${row.side === 'BUY' ? 'up' : 'down'}>${row.side}</span>` },
  { label: 'Price', num: true, cell: (row) => price(row.price) },
  { label: 'Shares', num: true, cell: (row) => shares(row.size) },
  { label: 'USD', num: true, cell: (row) => usd(row.usd) },
  { label: 'Role', cell: (row) => row.role },
];

function Categories({ wallet, period }) {
  const { answer, error, loading } = useAnswer(`/wallets/${wallet}/categories`, { period });
  if (error) return html`<${ErrorNote} error=${error} />`;
  if (!answer) return html`<p class="muted">…</p>`;
  if (answer.rows.length === 0) return html`<p class="empty">no market decided in this window</p>`;
  return html`<div class="scroll"><table data-table="categories" data-state=${loading ? 'loading' : 'ready'}>
    <thead><tr><th>Category</th><th class="num">Total PnL</th><th class="num">Realized</th><th class="num">Volume</th><th class="num">Markets</th><th class="num">Win rate</th></tr></thead>
    <tbody>
      ${answer.rows.map(
        (row) => html`<tr data-key=${row.category}>
          <td>${row.category}</td><td class="num">${signed(row.totalPnl)}</td><td class="num">${usd(row.realizedPnl)}</td>
          <td class="num">${usd(row.volume)}</td><td class="num">${count(row.marketsTraded)}</td>
          <td class="num">${percent(row.winRate)}</td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

function Identity({ wallet }) {
  const [name, setName] = useState(null);
  // Tags exist once their rollup ran (health names it): asked before, the answer would be a 503.
  const health = useAnswer('/health');
  const tags = useAnswer(health.answer?.rollups.tags != null ? '/wallets/tags' : null);
  useEffect(() => {
    walletNames([wallet]).then(
      (names) => setName(names[wallet] ?? null),
      () => setName(null),
    );
  }, [wallet]);
  const tag = tags.answer?.tags[wallet];
  return html`<div class="identity">
    <h1>${name ?? 'Wallet'} <code data-wallet>${wallet}</code></h1>
    ${tag && html`<p class="tag" data-tag=${tag.kind} title=${`since ${tag.since}`}><b>${tag.kind}</b> ${tag.text}</p>`}
  </div>`;
}

const WALLET_PATTERN = /^0x[0-9a-f]{40}$/;

/** The page of an address: one line saying what is wrong when it is not one, the API asked nothing. */
export function WalletPage({ wallet }) {
  if (!WALLET_PATTERN.test(wallet)) {
    return html`<section>
      <h1>Wallet <code>${wallet}</code></h1>
      <${ErrorNote} error=${{ message: 'not a wallet address: give 0x and 40 hex digits' }} />
    </section>`;
  }
  return html`<${WalletFigures} wallet=${wallet} />`;
}

/**
 * A wallet's sections. When its stats are refused (the node catching up, the key over its rate), that one error is
 * shown, not one per section.
 */
function WalletFigures({ wallet }) {
  const [period, setPeriod] = useState('all');
  const stats = useAnswer(`/wallets/${wallet}/stats`, { period });
  if (stats.error)
    return html`<section>
    <${Identity} wallet=${wallet} />
    <${ErrorNote} error=${stats.error} />
  </section>`;
  const loadPositions = (open) => async (offset) => {
    const path = open ? `/wallets/${wallet}/positions` : `/wallets/${wallet}/closed-positions`;
    const answer = await getJson(path, { status: open ? 'open' : undefined, limit: PAGE_ROWS, offset: offset ?? 0 });
    return { rows: answer.rows, next: answer.next, total: answer.total };
  };
  const loadTrades = async (before) => {
    const answer = await getJson(`/wallets/${wallet}/trades`, { limit: PAGE_ROWS, before });
    return { rows: answer.trades, next: answer.next, total: null };
  };
  return html`<section>
    <${Identity} wallet=${wallet} />
    <div class="toggle" role="group" aria-label="window">
      ${WINDOWS.map(
        (choice) => html`<button
          type="button"
          data-window=${choice}
          aria-pressed=${choice === period}
          onClick=${() => setPeriod(choice)}
        >
          ${choice}
        </button>`,
      )}
    </div>
    <div data-stats=${stats.loading ? 'loading' : (stats.of ?? '')}>
      ${stats.answer && html`<${Headline} row=${stats.answer.row} />`}
    </div>
    <h2>Cumulative PnL of closed positions</h2>
    ${stats.answer && html`<${PnlChart} wallet=${wallet} from=${period === 'all' ? 0 : stats.answer.from} />`}
    <h2>Open positions</h2>
    <${PagedTable} name="open" columns=${positionColumns(true)} load=${loadPositions(true)} rowKey=${positionKey} reset=${wallet} empty="no open position" />
    <h2>Closed positions</h2>
    <${PagedTable} name="closed" columns=${positionColumns(false)} load=${loadPositions(false)} rowKey=${positionKey} reset=${wallet} empty="no closed position" />
    <h2>Trades</h2>
    <${PagedTable} name="trades" columns=${tradeColumns} load=${loadTrades} rowKey=${tradeKey} reset=${wallet} empty="no trade" />
    <h2>Categories</h2>
    <${Categories} wallet=${wallet} period=${period} />
    <${DataApiLinks} requests=${[
      ['getVenuePositions', `/positions?user=${wallet}`],
      ['getVenueClosedPositions', `/closed-positions?user=${wallet}`],
      ['getVenueActivity', `/activity?user=${wallet}`],
      ['getVenueTrades', `/trades?user=${wallet}`],
      ['getVenueValue', `/value?user=${wallet}`],
      ['getVenueTraded', `/traded?user=${wallet}`],
    ]} />
  </section>`;
}
