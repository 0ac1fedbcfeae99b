// A table that pages through an API answer with the API's own cursor (an offset, or a `ts,block,logIndex`
// cursor): `load(cursor)` gives { rows, next, total }, the first page at cursor null. Earlier pages are asked
// again by the cursors that reached them, so paging back shows what the API answers then. `reset` names the
// query: when it changes, paging starts over. Each row carries data-key, the row's identity, for the tests.
import { useEffect, useState } from 'preact/hooks';
import { ErrorNote } from './errorNote.js';
import { html } from './html.js';
import { count } from './format.js';

export function PagedTable({ name, columns, load, rowKey, reset, empty = 'none' }) {
  const [paging, setPaging] = useState({ reset, cursors: [null] });
  const [page, setPage] = useState({ rows: null, next: null, total: null, error: null, loading: true });
  const cursors = paging.reset === reset ? paging.cursors : [null];
  const setCursors = (next) => setPaging({ reset, cursors: next });
  const cursor = cursors[cursors.length - 1];
  useEffect(() => {
    let current = true;
    setPage((previous) => ({ ...previous, loading: true }));
    load(cursor).then(
      (answer) => current && setPage({ ...answer, error: null, loading: false }),
      (error) => current && setPage({ rows: null, next: null, total: null, error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [reset, cursors.length, cursor]);
  const shown = page.rows === null ? null : page.rows.length;
  return html`<div class="table" data-table=${name} data-state=${page.loading ? 'loading' : page.error ? 'error' : 'ready'}>
    ${page.error && html`<${ErrorNote} error=${page.error} />`}
    ${
      page.rows !== null &&
      (page.rows.length === 0
        ? html`<p class="empty">${empty}</p>`
        : html`<div class="scroll"><table>
          <thead>
            <tr>${columns.map((column) => html`<th class=${column.num ? 'num' : ''}>${column.label}</th>`)}</tr>
          </thead>
          <tbody>
            ${page.rows.map(
              (row) => html`<tr data-key=${rowKey(row)}>
                ${columns.map((column) => html`<td class=${column.num ? 'num' : ''}>${column.cell(row)}</td>`)}
              </tr>`,
            )}
          </tbody>
        </table></div>`)
    }
    <div class="pager">
      <button type="button" disabled=${cursors.length === 1} onClick=${() => setCursors([null])}>First</button>
      <button type="button" disabled=${cursors.length === 1} onClick=${() => setCursors(cursors.slice(0, -1))}>
        Previous
      </button>
      <span class="page-number">page ${cursors.length}${shown !== null ? `, ${shown} rows` : ''}${
        page.total != null ? ` of ${count(page.total)}` : ''
      }</span>
      <button
        type="button"
        data-next
        disabled=${page.next === null || page.next === undefined || page.loading}
        onClick=${() => setCursors([...cursors, page.next])}
      >
        Next
      </button>
    </div>
  </div>`;
}
