// A market (/market/{conditionId}): its question, outcomes, last prices and resolution; price and volume over
// time from its fills; holders by outcome with their PnL; its top traders with their fill counts; its trades.
// A combo lists its legs.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { getJson } from './api.js';
import { ErrorNote } from './errorNote.js';
import { axisUsd, count, price, shares, sign, time, usd } from './format.js';
import { DataApiLinks } from './dataApiLinks.js';
import { html } from './html.js';
import { LineChart } from './lineChart.js';
import { marketLink, outcomeName, walletLink } from './links.js';
import { PagedTable } from './pagedTable.js';
import { useAnswer, useLoaded } from './useAnswer.js';
import { tradeKey } from './rowKeys.js';
import { walletNames } from './walletNames.js';

/** The fills the charts read at most, newest first: 10 requests of 1,000. */
const CHART_FILLS = 10_000;
const PAGE_ROWS = 25;
const VOLUME_BARS = 120;

const signed = (value) => html`<span class=${sign(value)}>${usd(value)}</span>`;

/** The market's newest taker fills (one per match, so volume is not counted twice), oldest first. */
async function takerFills(conditionId) {
  const fills = [];
  let cursor;
  let read = 0;
  while (read < CHART_FILLS) {
    const page = await getJson(`/markets/${conditionId}/trades`, { limit: 1000, cursor });
    read += page.trades.length;
    for (const trade of page.trades) if (trade.role === 'taker') fills.push(trade);
    if (page.next === null || page.trades.length === 0) break;
    cursor = page.next;
  }
  return { fills: fills.reverse(), capped: read >= CHART_FILLS };
}

function priceSeries(fills, outcomes) {
  const times = fills.map((fill) => fill.ts);
  const series = [0, 1].map((outcome) => ({
    label: outcomes?.[outcome] ?? `#${outcome}`,
    values: fills.map((fill) => (fill.outcomeIndex === outcome ? fill.price : null)),
    format: price,
  }));
  return { times, series };
}

function volumeSeries(fills) {
  if (fills.length === 0) return { times: [], series: [] };
  const start = fills[0].ts;
  const span = Math.max(fills[fills.length - 1].ts - start, 60);
  const width = Math.max(60, Math.ceil(span / VOLUME_BARS / 60) * 60);
  const buckets = new Map();
  for (const fill of fills) {
    const bucket = start + Math.floor((fill.ts - start) / width) * width;
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + fill.usd);
  }
  const times = [...buckets.keys()];
  return {
    times,
    series: [
      { label: 'Volume (USD)', values: times.map((t) => buckets.get(t)), bars: true, format: usd, axis: axisUsd },
    ],
  };
}

function Charts({ conditionId, outcomes }) {
  const { answer: loaded, error } = useLoaded(conditionId, () => takerFills(conditionId));
  const prices = useMemo(() => (loaded ? priceSeries(loaded.fills, outcomes) : null), [loaded]);
  const volume = useMemo(() => (loaded ? volumeSeries(loaded.fills) : null), [loaded]);
  if (error) return html`<${ErrorNote} error=${error} />`;
  if (loaded === null) return html`<p class="muted">loading fills…</p>`;
  return html`<h2>Price</h2>
    <p class="muted">
      ${count(loaded.fills.length)} matches (taker fills)${loaded.capped ? `, the newest ${count(CHART_FILLS)} fills` : ''}
    </p>
    <${LineChart} name="price" times=${prices.times} series=${prices.series} />
    <h2>Volume</h2>
    <${LineChart} name="volume" times=${volume.times} series=${volume.series} height=${160} />`;
}

function Heading({ answer }) {
  const { market, lastFills, resolved, payouts, resolvedAt, fills } = answer;
  return html`<div class="identity">
    <h1 data-question>${market.question ?? 'Market'}</h1>
    <p class="muted">
      <code>${answer.conditionId}</code> · ${market.category ?? 'no category'}${market.negRisk ? ' · neg-risk' : ''} ·
      ${count(fills)} fills
    </p>
    <div class="figures">
      ${[0, 1].map(
        (i) => html`<div class="figure" data-figure=${`outcome${i}`}>
          <span class="label">${outcomeName(market, i)}</span>
          <b>${resolved ? `pays ${price(payouts[i])}` : price(lastFills[i]?.price)}</b>
          <span class="muted">${resolved ? '' : lastFills[i] ? `last fill ${time(lastFills[i].ts)}` : 'no fill'}</span>
        </div>`,
      )}
      <div class="figure" data-figure="status">
        <span class="label">Status</span><b data-status>${resolved ? 'resolved' : 'open'}</b>
        <span class="muted">${resolved ? time(resolvedAt) : ''}</span>
      </div>
    </div>
  </div>`;
}

function Legs({ legs }) {
  return html`<h2>Legs</h2>
    <div class="scroll"><table data-table="legs">
      <thead><tr><th>Market</th><th>Outcome</th><th class="num">Settle</th></tr></thead>
      <tbody>
        ${legs.map(
          (leg) => html`<tr data-key=${leg.positionId}>
            <td>${marketLink(leg.conditionId, leg.question)}</td><td>${leg.outcome ?? `#${leg.outcomeIndex}`}</td>
            <td class="num">${leg.settle === null ? 'open' : price(leg.settle)}</td>
          </tr>`,
        )}
      </tbody>
    </table></div>`;
}

function HolderGroup({ name, title, group, names }) {
  return html`<div class="group">
    <h3>${title} <span class="muted">${count(group.wallets)} wallets, ${shares(group.shares)} shares, avg entry ${price(group.avgEntry)}</span></h3>
    <div class="scroll"><table data-table=${name}>
      <thead><tr><th>Wallet</th><th class="num">Shares</th><th class="num">Avg entry</th><th class="num">Avg sell</th><th class="num">Realized</th></tr></thead>
      <tbody>
        ${group.members.map(
          (member) => html`<tr data-key=${member.wallet}>
            <td>${walletLink(member.wallet, names)}</td><td class="num">${shares(member.shares)}</td>
            <td class="num">${price(member.avgEntry)}</td><td class="num">${price(member.avgSell)}</td>
            <td class="num">${signed(member.realizedPnl)}</td>
          </tr>`,
        )}
      </tbody>
    </table></div>
  </div>`;
}

function Holders({ conditionId, market }) {
  const { answer, error } = useAnswer(`/markets/${conditionId}/holder-lines`, { top: 10 });
  const [names, setNames] = useState({});
  useEffect(() => {
    if (!answer) return;
    const wallets = answer.outcomes.flatMap((o) => [...o.holders.members, ...o.traders.members].map((m) => m.wallet));
    walletNames(wallets).then(setNames, () => {});
  }, [answer]);
  if (error) return html`<${ErrorNote} error=${error} />`;
  if (!answer) return html`<p class="muted">…</p>`;
  return html`<div class="outcomes">
    ${answer.outcomes.map(
      (outcome) => html`<div class="outcome" data-outcome=${outcome.outcomeIndex}>
        <h3>
          ${outcomeName(market, outcome.outcomeIndex)}
          ${outcome.mark !== null && html`<span class="muted">at ${price(outcome.mark)}</span>`}
        </h3>
        <${HolderGroup} name=${`holders${outcome.outcomeIndex}`} title="Top holders" group=${outcome.holders} names=${names} />
        <${HolderGroup} name=${`traders${outcome.outcomeIndex}`} title="Best PnL on this outcome" group=${outcome.traders} names=${names} />
      </div>`,
    )}
  </div>`;
}

async function loadTopTraders(conditionId) {
  const answer = await getJson(`/markets/${conditionId}/top-traders`, { limit: 20 });
  const wallets = answer.traders.map((trader) => trader.wallet);
  if (wallets.length === 0) return { traders: [], counts: {}, lastTs: {}, names: {} };
  const [tally, names] = await Promise.all([
    getJson(`/markets/${conditionId}/trade-counts`, { wallets: wallets.join(',') }),
    walletNames(wallets),
  ]);
  return { traders: answer.traders, counts: tally.counts, lastTs: tally.lastTs, names };
}

function TopTraders({ conditionId, market }) {
  const { answer: loaded, error } = useLoaded(conditionId, () => loadTopTraders(conditionId));
  if (error) return html`<${ErrorNote} error=${error} />`;
  if (loaded === null) return html`<p class="muted">…</p>`;
  return html`<div class="scroll"><table data-table="top-traders">
    <thead>
      <tr>
        <th>Wallet</th><th class="num">Total PnL</th><th class="num">Realized</th><th class="num">Unrealized</th>
        <th class="num">${outcomeName(market, 0)} shares</th><th class="num">${outcomeName(market, 1)} shares</th>
        <th class="num">Fills</th><th>Last trade</th>
      </tr>
    </thead>
    <tbody>
      ${loaded.traders.map(
        (trader) => html`<tr data-key=${trader.wallet}>
          <td>${walletLink(trader.wallet, loaded.names)}</td><td class="num">${signed(trader.totalPnl)}</td>
          <td class="num">${usd(trader.realizedPnl)}</td><td class="num">${usd(trader.unrealizedPnl)}</td>
          <td class="num">${shares(trader.shares[0])}</td><td class="num">${shares(trader.shares[1])}</td>
          <td class="num">${count(loaded.counts[trader.wallet])}</td><td>${time(loaded.lastTs[trader.wallet])}</td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

export function MarketPage({ conditionId }) {
  const { answer, error } = useAnswer(`/markets/${conditionId}`);
  if (error) return html`<section><h1>Market</h1><${ErrorNote} error=${error} /></section>`;
  if (!answer) return html`<section><p class="muted">loading the market…</p></section>`;
  const id = answer.conditionId;
  const tradeColumns = [
    { label: 'Time', cell: (row) => time(row.ts) },
    { label: 'Wallet', cell: (row) => walletLink(row.wallet) },
    { label: 'Outcome', cell: (row) => outcomeName(answer.market, row.outcomeIndex) },
    { label: 'Side', cell: (row) => html`<span class=${row.side === 'BUY' ? 'up' : 'down'}>${row.side}</span>` },
    { label: 'Price', num: true, cell: (row) => price(row.price) },
    { label: 'Shares', num: true, cell: (row) => shares(row.size) },
    { label: 'USD', num: true, cell: (row) => usd(row.usd) },
    { label: 'Role', cell: (row) => row.role },
  ];
  const loadTrades = async (cursor) => {
    const page = await getJson(`/markets/${id}/trades`, { limit: PAGE_ROWS, cursor });
    return { rows: page.trades, next: page.next, total: null };
  };
  return html`<section>
    <${Heading} answer=${answer} />
    ${answer.legs && html`<${Legs} legs=${answer.legs} />`}
    <${Charts} conditionId=${id} outcomes=${answer.market.outcomes} />
    <h2>Holders by outcome</h2>
    <${Holders} conditionId=${id} market=${answer.market} />
    <h2>Top traders</h2>
    <${TopTraders} conditionId=${id} market=${answer.market} />
    <h2>Trades</h2>
    <${PagedTable} name="trades" columns=${tradeColumns} load=${loadTrades} rowKey=${tradeKey} reset=${id} empty="no trade" />
    <${DataApiLinks} requests=${[
      // The Data API's condition ids are 32-byte words: a Protocol V2 id with its zero byte.
      ['getVenueTrades', `/trades?market=${id.padEnd(66, '0')}`],
      ['getVenueHolders', `/holders?market=${id.padEnd(66, '0')}`],
    ]} />
  </section>`;
}
