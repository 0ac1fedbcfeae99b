// Links to the wallet and market pages, named by a profile name or a question when there is one.
import { html } from './html.js';
import { shortId } from './format.js';

export const marketLink = (conditionId, question) =>
  conditionId === null
    ? html`<span class="muted">unknown token</span>`
    : html`<a href=${`/market/${conditionId}`} title=${conditionId}>${question ?? shortId(conditionId)}</a>`;

/** The outcome's name from the market's outcomes, else its index. */
export const outcomeName = (market, outcomeIndex) =>
  market?.outcomes?.[outcomeIndex] ?? (outcomeIndex < 0 ? '?' : `#${outcomeIndex}`);

export const walletLink = (wallet, names) =>
  html`<a href=${`/wallet/${wallet}`} title=${wallet}>${names?.[wallet] ?? shortId(wallet)}</a>`;
