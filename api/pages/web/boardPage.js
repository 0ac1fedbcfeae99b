// The board (/): every wallet's leaderboard row in a period and category, by the chosen sort, paged with the
// API's offsets, names from the profiles when the server has them. The choices live in the URL's query, so a
// view can be shared or reloaded. A search's words (`q`) list the markets they find above the board; below it, the
// day's busiest events by title.
import { useState } from 'preact/hooks';
import { getJson } from './api.js';
import { DataApiLinks } from './dataApiLinks.js';
import { ErrorNote } from './errorNote.js';
import { html } from './html.js';
import { count, percent, sign, time, usd } from './format.js';
import { marketLink, walletLink } from './links.js';
import { PagedTable } from './pagedTable.js';
import { useLoaded } from './useAnswer.js';
import { walletNames } from './walletNames.js';
import { MarketResults } from './marketResults.js';
import { SERVER_CHOICES } from './serverChoices.js';

const { categories: CATEGORIES, periods: PERIODS, sorts: SORT_NAMES } = SERVER_CHOICES;
const SORT_LABELS = { totalPnl: 'Total PnL', realizedPnl: 'Realized PnL', volume: 'Volume', roi: 'ROI' };
const PAGE_ROWS = 50;
const HEAT_EVENTS = 8;

/** The day's busiest events, each with its title and its busiest market (GET /v1/events/{slug}) when known. */
async function busiestEvents() {
  const heat = await getJson('/events/heat', { window: '24h', limit: HEAT_EVENTS });
  const found = await Promise.all(
    heat.events.map((event) => getJson(`/events/${encodeURIComponent(event.eventSlug)}`).catch(() => null)),
  );
  return heat.events.map((event, i) => ({
    ...event,
    title: found[i]?.title ?? null,
    market: found[i]?.markets[0]?.conditionId ?? null,
  }));
}

function BusiestEvents() {
  const { answer: events, error } = useLoaded('heat', busiestEvents);
  if (error) return html`<${ErrorNote} error=${error} />`;
  if (events === null) return html`<p class="muted">…</p>`;
  if (events.length === 0) return html`<p class="empty">no event traded in the last 24 hours</p>`;
  return html`<ol class="heat" data-heat>
    ${events.map((event) => {
      const name = event.title ?? event.eventSlug;
      const shown = event.market === null ? name : marketLink(event.market, name);
      return html`<li data-key=${event.eventSlug}>${shown} <span class="muted">${count(event.uniqueTraders)} traders</span></li>`;
    })}
  </ol>`;
}

function choiceOf(params, name, choices, fallback) {
  const value = params.get(name);
  return choices.includes(value) ? value : fallback;
}

function Choice({ label, name, value, choices, labels = {}, onChange }) {
  return html`<label class="choice">${label}
    <select name=${name} value=${value} onChange=${(event) => onChange(event.currentTarget.value)}>
      ${choices.map((choice) => html`<option value=${choice}>${labels[choice] ?? choice}</option>`)}
    </select>
  </label>`;
}

export function BoardPage() {
  const params = new URLSearchParams(location.search);
  const [view, setView] = useState({
    period: choiceOf(params, 'period', PERIODS, PERIODS[0]),
    category: choiceOf(params, 'category', CATEGORIES, CATEGORIES[0]),
    sort: choiceOf(params, 'sort', SORT_NAMES, SORT_NAMES[0]),
  });
  const q = params.get('q');
  const choose = (name) => (value) => {
    const next = { ...view, [name]: value };
    history.replaceState(null, '', `/?${new URLSearchParams(q ? { q, ...next } : next)}`);
    setView(next);
  };
  const load = async (offset) => {
    const answer = await getJson('/leaderboard', { ...view, limit: PAGE_ROWS, offset: offset ?? 0 });
    const names = await walletNames(answer.rows.map((row) => row.wallet));
    const rows = answer.rows.map((row, i) => ({ ...row, rank: answer.offset + i + 1, names }));
    return { rows, next: answer.next, total: answer.total, block: answer.block };
  };
  const columns = [
    { label: '#', num: true, cell: (row) => row.rank },
    { label: 'Wallet', cell: (row) => walletLink(row.wallet, row.names) },
    {
      label: 'Total PnL',
      num: true,
      cell: (row) => html`<span class=${sign(row.totalPnl)}>${usd(row.totalPnl)}</span>`,
    },
    { label: 'Realized', num: true, cell: (row) => usd(row.realizedPnl) },
    { label: 'Unrealized', num: true, cell: (row) => usd(row.unrealizedPnl) },
    { label: 'Volume', num: true, cell: (row) => usd(row.volume) },
    { label: 'ROI', num: true, cell: (row) => percent(row.roi) },
    { label: 'Win rate', num: true, cell: (row) => percent(row.winRate) },
    { label: 'Markets', num: true, cell: (row) => count(row.marketsTraded) },
    { label: 'Fills', num: true, cell: (row) => count(row.fills) },
    { label: 'Last active', cell: (row) => time(row.lastActivityAt) },
  ];
  return html`<section>
    ${q && html`<${MarketResults} q=${q} />`}
    <h1>Leaderboard</h1>
    <div class="controls">
      <${Choice} label="Period" name="period" value=${view.period} choices=${PERIODS} onChange=${choose('period')} />
      <${Choice}
        label="Category"
        name="category"
        value=${view.category}
        choices=${CATEGORIES}
        onChange=${choose('category')}
      />
      <${Choice}
        label="Sort"
        name="sort"
        value=${view.sort}
        choices=${SORT_NAMES}
        labels=${SORT_LABELS}
        onChange=${choose('sort')}
      />
    </div>
    <${PagedTable}
      name="board"
      columns=${columns}
      load=${load}
      rowKey=${(row) => row.wallet}
      reset=${`${view.period}/${view.category}/${view.sort}`}
      empty="no wallet has a row in this period and category"
    />
    <h2>Busiest events, last 24 hours</h2>
    <${BusiestEvents} />
    <${DataApiLinks} requests=${[['getLeaderboard', '/v1/leaderboard?timePeriod=ALL&orderBy=PNL']]} />
  </section>`;
}
