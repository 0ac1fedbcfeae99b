// The markets a text search finds (/v1/markets?q=), most fills first, each a link to its page.
import { ErrorNote } from './errorNote.js';
import { count } from './format.js';
import { html } from './html.js';
import { marketLink } from './links.js';
import { useAnswer } from './useAnswer.js';

export function MarketResults({ q }) {
  const { answer, error } = useAnswer('/markets', { q, limit: 20 });
  if (error) return html`<${ErrorNote} error=${error} />`;
  if (!answer) return html`<p class="muted">searching…</p>`;
  return html`<section class="results">
    <h2>Markets matching “${q}”</h2>
    ${
      answer.markets.length === 0
        ? html`<p class="empty">no indexed market's question or slug holds every word</p>`
        : html`<div class="scroll"><table data-table="markets" data-state="ready">
          <thead><tr><th>Market</th><th>Category</th><th class="num">Fills</th><th>Status</th></tr></thead>
          <tbody>
            ${answer.markets.map(
              (row) => html`<tr data-key=${row.conditionId}>
                <td>${marketLink(row.conditionId, row.market.question)}</td><td>${row.market.category ?? '–'}</td>
                <td class="num">${count(row.fills)}</td><td>${row.resolved ? 'resolved' : 'open'}</td>
              </tr>`,
            )}
          </tbody>
        </table></div>`
    }
    ${answer.more && html`<p class="muted">More markets match than these: add a word to narrow the search.</p>`}
  </section>`;
}
