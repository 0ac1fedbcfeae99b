// An answer that did not come: the status and the API's own words.
import { html } from './html.js';

export function ErrorNote({ error }) {
  const status = error.status ? `${error.status}: ` : '';
  return html`<p class="error" role="alert">${status}${error.message}</p>`;
}
