// The Data API shapes of what a page shows (docs/venue-api.md): each request's URL, linked to its operation in
// /docs, where "Try it out" sends this browser's key (a link followed here would go without one).
import { html } from './html.js';

const TAG = encodeURIComponent('Data API shapes');

/** `requests`: [operationId, path and query] pairs. */
export function DataApiLinks({ requests }) {
  return html`<p class="muted data-api" data-venue-api>
    In the venue's Data API shapes:
    ${requests.map(
      ([operationId, url], i) =>
        html`${i > 0 ? ' · ' : ' '}<a href=${`/docs#/${TAG}/${operationId}`} data-operation=${operationId}><code>${url}</code></a>`,
    )}
  </p>`;
}
