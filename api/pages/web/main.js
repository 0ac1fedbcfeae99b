// The pages' entry: the header (search, the block shown, the key) and the page the path names. A page is drawn
// only with a key at hand; a key the server refuses brings the key form back.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { KEY_REFUSED, storedKey } from './api.js';
import { BoardPage } from './boardPage.js';
import { html } from './html.js';
import { KeyGate } from './keyGate.js';
import { MarketPage } from './marketPage.js';
import { PageHeader } from './pageHeader.js';
import { WalletPage } from './walletPage.js';

function pageOf(path) {
  const [, kind, id] = path.split('/');
  if (kind === 'wallet' && id) return html`<${WalletPage} wallet=${id.toLowerCase()} />`;
  if (kind === 'market' && id) return html`<${MarketPage} conditionId=${id.toLowerCase()} />`;
  return html`<${BoardPage} />`;
}

/** Why the key form shows: no key yet, the server refused the stored one, or the user asked to change it. */
const initialGate = () => (storedKey() === null ? 'missing' : null);

function App() {
  const [gate, setGate] = useState(initialGate);
  useEffect(() => {
    const onRefused = () => setGate('refused');
    window.addEventListener(KEY_REFUSED, onRefused);
    return () => window.removeEventListener(KEY_REFUSED, onRefused);
  }, []);
  return html`<${PageHeader} apiKey=${gate === null ? storedKey() : null} onChangeKey=${() => setGate('change')} />
    <main>
      ${
        gate === null
          ? pageOf(location.pathname)
          : html`<${KeyGate} refused=${gate === 'refused'} onKey=${() => setGate(null)} />`
      }
    </main>`;
}

render(html`<${App} />`, document.getElementById('app'));
