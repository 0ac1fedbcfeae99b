// The bar over every page: home, the API reference, a search by wallet or market, the block the answers reflect
// (from /v1/health) and the key in use. Words find markets by their question (the board lists them).
import { useState } from 'preact/hooks';
import { html } from './html.js';
import { count, shortId, time } from './format.js';
import { useAnswer } from './useAnswer.js';

const WALLET = /^0x[0-9a-fA-F]{40}$/;
const MARKET = /^0x(?:[0-9a-fA-F]{64}|[0-9a-fA-F]{62})$/;

/** Where a search goes: a wallet's page, a market's page, or the board's market results for other text. */
export function searchTarget(text) {
  const query = text.trim();
  if (WALLET.test(query)) return `/wallet/${query.toLowerCase()}`;
  if (MARKET.test(query)) return `/market/${query.toLowerCase()}`;
  if (query.length >= 2) return `/?${new URLSearchParams({ q: query })}`;
  return null;
}

function Health() {
  const { answer, error } = useAnswer('/health');
  if (error) return html`<span class="health down" data-health="error">health: ${error.message}</span>`;
  if (!answer) return html`<span class="health">…</span>`;
  const title = `block time ${time(answer.blockTs)}; ${answer.lagBlocks ?? 0} blocks behind the source`;
  return html`<span class="health ${answer.status}" data-health=${answer.status} title=${title}>
    block <b data-block>${count(answer.block)}</b> · ${answer.status}
  </span>`;
}

export function PageHeader({ apiKey, onChangeKey }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState(null);
  const search = (event) => {
    event.preventDefault();
    const target = searchTarget(text);
    if (target === null) setProblem('a wallet (0x plus 40 hex), a market (0x plus 64 hex) or 2 letters of a question');
    else location.assign(target);
  };
  return html`<header class="bar">
    <a class="brand" href="/">tally</a>
    <nav><a href="/">Board</a><a href="/docs">API reference</a></nav>
    <form class="search" role="search" onSubmit=${search}>
      <input
        name="q"
        placeholder="wallet 0x…, market id, or words of a question"
        spellcheck="false"
        value=${text}
        onInput=${(event) => {
          setText(event.currentTarget.value);
          setProblem(null);
        }}
      />
      <button type="submit">Go</button>
      ${problem && html`<span class="error" data-search-problem>${problem}</span>`}
    </form>
    ${apiKey && html`<${Health} />`}
    ${
      apiKey &&
      html`<span class="key">key ${shortId(apiKey)} <button type="button" onClick=${onChangeKey}>change</button></span>`
    }
  </header>`;
}
