// The layout of the state's keys and values. State is derived from the log, so a directory folded by another
// layout is not misread: its state is emptied and folded again from the log.
import { assert } from '../assert.js';
import type { FoldOptions } from '../foldOptions.js';
import type { StateStore } from './openStateStore.js';
import { STATE_DBS } from './stateDbNames.js';

/**
 * 2: markets split into identity (`markets`) and marks (`marketMarks`). 3: splits through the neg-risk adapter
 * set basisApprox. 4: one fills table of binary rows with per-wallet and per-market fill lists (was trade
 * chunks per market and block); the cursor counts fills. 5: the state numbers wallets, tokens and markets
 * (createStateIds); fill rows, fill keys and list keys hold ids, not hex (88-byte rows, were 176). 6: position
 * and market -> wallet keys hold ids (8 bytes, were 106 and 108 characters). 7: block records are 72 bytes under
 * a u32 key (were msgpack maps of about 180 bytes under a 10-digit key). 8: positions count their redemption
 * events (the leaderboard's `redemptions`); the board's rollup tables. 9: the fills table holds one value per
 * block (its time and transaction hashes once, 52-byte rows), not an 88-byte row under a key per fill. 10: the
 * CLOB V2 collateral adapters are venue contracts (a state folded before holds their phantom positions) and
 * reported round prices are kept. 11: the Protocol V2 ledger is folded (docs/design.md 10). 12: a CTF condition names
 * its migration condition (`migration`), a migration carries the position's history, the neg-risk module's event-wide
 * moves are folded. 13: fill lists are keyed bucket first, and which buckets an owner has lists in is a bitmap an
 * epoch of 64 buckets (`walletFillEpochs`, `marketFillEpochs`): a commit's list puts land together. 14: a fold far
 * behind its source backfills (backfillRecord.ts): positions go to a token-first working table
 * (`backfillPositions`) until the hand-off builds `positions` from it. 15: wallets' splits, merges, redemptions and
 * conversions are kept with the fills (`walletMoves`, walletMove.ts), for the Data API's /activity.
 */
export const STATE_LAYOUT = 15;
const LAYOUT_KEY = 'layout';

const NO_TRADES = '-no-trades';

/** The layout and the options a state is folded with, as the state records them: "7", or "7-no-trades". */
function layoutTag(options: FoldOptions): string {
  return String(STATE_LAYOUT) + (options.trades ? '' : NO_TRADES);
}

/** The layout tag the state was folded with: null when it holds nothing yet. */
function storedLayout(store: StateStore): string | null {
  const bytes = store.dbs.meta.getBinary(LAYOUT_KEY);
  if (bytes) {
    const tag = bytes.toString('latin1');
    // layoutTag's form: the layout's number first.
    assert(Number.parseInt(tag, 10) >= 1, 'a stored layout tag starts with its layout');
    return tag;
  }
  // A state with no layout key but some content predates layouts: layout 1.
  return store.dbs.blocks.getKeysCount({ limit: 1 }) > 0 ? '1' : null;
}

/** True when the state holds nothing or was folded with this layout and these options. */
export function isStateLayoutCurrent(store: StateStore, options: FoldOptions): boolean {
  const layout = storedLayout(store);
  return layout === null || layout === layoutTag(options);
}

/** Whether the state keeps fills: false when it was folded with the trade store off. */
export function stateKeepsTrades(store: StateStore): boolean {
  return !(storedLayout(store) ?? '').endsWith(NO_TRADES);
}

/**
 * Before folding: empties a state of another layout or other options (returns true then) and records these, so
 * the fold starts again from the log's first block.
 */
export function prepareStateLayout(store: StateStore, options: FoldOptions): boolean {
  const layout = storedLayout(store);
  const tag = layoutTag(options);
  if (layout === tag) return false;
  store.env.transactionSync(() => {
    if (layout !== null) for (const name of STATE_DBS) store.dbs[name].clearSync();
    store.dbs.meta.put(LAYOUT_KEY, Buffer.from(tag, 'latin1'));
  });
  assert(storedLayout(store) === tag, 'a state prepared holds the layout it is folded with');
  return layout !== null;
}
