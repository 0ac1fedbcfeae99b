// The layout of the state's keys and values. State is derived from the log, so a directory folded by another
// layout is not misread: its state is emptied and folded again from the log.
import type { StateStore } from './openStateStore.js';
import { STATE_DBS } from './openStateStore.js';

/**
 * 2: markets split into identity (`markets`) and marks (`marketMarks`). 3: splits through the neg-risk adapter
 * set basisApprox. 4: one fills table of binary rows with per-wallet and per-market fill lists (was trade
 * chunks per market and block); the cursor counts fills. 5: the state numbers wallets, tokens and markets
 * (createStateIds); fill rows, fill keys and list keys hold ids, not hex (88-byte rows, were 176). 6: position
 * and market -> wallet keys hold ids (8 bytes, were 106 and 108 characters). 7: block records are 72 bytes under
 * a u32 key (were msgpack maps of about 180 bytes under a 10-digit key).
 */
export const STATE_LAYOUT = 7;
const LAYOUT_KEY = 'layout';

/** The layout the state was folded with: null when it holds nothing yet. */
function storedLayout(store: StateStore): number | null {
  const bytes = store.dbs.meta.getBinary(LAYOUT_KEY);
  if (bytes) return Number(bytes.toString('latin1'));
  // A state with no layout key but some content predates layouts: layout 1.
  return store.dbs.blocks.getKeysCount({ limit: 1 }) > 0 ? 1 : null;
}

/** True when the state holds nothing or was folded with this layout. */
export function isStateLayoutCurrent(store: StateStore): boolean {
  const layout = storedLayout(store);
  return layout === null || layout === STATE_LAYOUT;
}

/**
 * Before folding: empties a state of another layout (returns true then) and records this layout, so the fold
 * starts again from the log's first block.
 */
export function prepareStateLayout(store: StateStore): boolean {
  const layout = storedLayout(store);
  if (layout === STATE_LAYOUT) return false;
  store.env.transactionSync(() => {
    if (layout !== null) for (const name of STATE_DBS) store.dbs[name].clearSync();
    store.dbs.meta.put(LAYOUT_KEY, Buffer.from(String(STATE_LAYOUT), 'latin1'));
  });
  return layout !== null;
}
