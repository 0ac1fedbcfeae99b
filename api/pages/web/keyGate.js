// Asks for the API key once; the browser keeps it in localStorage (tally.apiKey). Without one, or after the
// server refused it, the page says how to make one.
import { useState } from 'preact/hooks';
import { KEY_PATTERN, saveKey } from './api.js';
import { html } from './html.js';

export function KeyGate({ refused, onKey }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState(null);
  const submit = (event) => {
    event.preventDefault();
    const key = text.trim();
    if (!KEY_PATTERN.test(key)) {
      setProblem('An API key is svc_ followed by 48 hexadecimal characters.');
      return;
    }
    saveKey(key);
    onKey();
  };
  return html`<section class="gate">
    <h1>An API key, please</h1>
    ${
      refused
        ? html`<p class="error" role="alert">The server refused the stored key: unknown or revoked API key. Enter another.</p>`
        : html`<p>Every figure here comes from this server's API, which answers only requests that carry a key.</p>`
    }
    <p>
      Make one on the server with <code>tally keys create --data DIR</code> (its last line is the key);${' '}
      <code>npm start</code> prints one for the demo. This browser keeps it (localStorage, <code>tally.apiKey</code>);
      it never goes into a URL.
    </p>
    <form onSubmit=${submit}>
      <input
        name="key"
        autocomplete="off"
        spellcheck="false"
        placeholder="svc_…"
        value=${text}
        onInput=${(event) => setText(event.currentTarget.value)}
      />
      <button type="submit">Use this key</button>
    </form>
    ${problem && html`<p class="error">${problem}</p>`}
  </section>`;
}
