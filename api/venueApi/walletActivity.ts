// A wallet's activity newest first (docs/venue-api.md, Activity): its fills and its moves (splits, merges,
// redemptions, conversions) merged by chain position, those before `before` when given.
import type { FillPosition, StoredFill } from '../../engine/state/storedFill.js';
import type { WalletMove } from '../../engine/state/walletMove.js';
import { assert } from '../../engine/assert.js';
import type { RouteContext } from '../routeContext.js';

export type ActivityEntry = { fill: StoredFill; move: null } | { fill: null; move: WalletMove };

/** Where an entry is on the chain. */
export function entryPosition(entry: ActivityEntry): { ts: number; block: number; logIndex: number } {
  if (entry.fill !== null) return { ts: entry.fill.ts, block: entry.fill.block, logIndex: entry.fill.row.logIndex };
  return entry.move;
}

export function* walletActivity(
  ctx: RouteContext,
  wallet: string,
  before: FillPosition | null,
  market: string | null,
): Generator<ActivityEntry> {
  const fills = ctx.state.walletFills(wallet, { before, market })[Symbol.iterator]();
  const moves = ctx.state.walletMoves(wallet, before)[Symbol.iterator]();
  let fill = fills.next();
  let move = moves.next();
  while (!fill.done || !move.done) {
    const fillFirst =
      move.done ||
      (!fill.done &&
        (fill.value.block > move.value.block ||
          (fill.value.block === move.value.block && fill.value.row.logIndex > move.value.logIndex)));
    if (fillFirst) {
      yield { fill: fill.value as StoredFill, move: null };
      fill = fills.next();
    } else {
      // A fill and a move are of different logs: never one position twice.
      assert(
        fill.done || fill.value.row.logIndex !== move.value.logIndex || fill.value.block !== move.value.block,
        'a fill and a move are of different logs',
      );
      yield { fill: null, move: move.value as WalletMove };
      move = moves.next();
    }
  }
}
