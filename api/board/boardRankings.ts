// The leaderboard's order (docs/design.md 5): every wallet with a row in the category and window, best first by the
// sort asked for, ties in wallet id order (ids number wallets in first-seen log order, so the order is a pure
// function of the log). Worked out once per rollup, window, category and sort, then pages are slices of it; a
// rewind under the server (a new state whose board may have the same generation and block) starts them over.
import { sumResults } from '../../engine/rollup/boardRow.js';
import type { BoardRow } from '../../engine/state/boardRecords.js';
import type { BoardInfo } from '../../engine/state/boardTables.js';
import type { StateReader } from '../../engine/state/stateReader.js';
import type { AskedWindow } from './boardWindow.js';

export const BOARD_SORTS = ['totalPnl', 'realizedPnl', 'volume', 'roi'] as const;
export type BoardSort = (typeof BOARD_SORTS)[number];

/** A category's wallets with their sort keys, column by column: no row object is kept a wallet. */
interface RankKeys {
  walletIds: number[];
  keys: Record<BoardSort, number[]>;
}

function createRankKeys(): RankKeys {
  return { walletIds: [], keys: { totalPnl: [], realizedPnl: [], volume: [], roi: [] } };
}

function addRankKeys(ranked: RankKeys, walletId: number, row: BoardRow): void {
  ranked.walletIds.push(walletId);
  for (const sort of BOARD_SORTS) ranked.keys[sort].push(sortKey[sort](row));
}

const sortKey: Record<BoardSort, (row: BoardRow) => number> = {
  totalPnl: (row) => row.realizedPnl + row.unrealizedPnl,
  realizedPnl: (row) => row.realizedPnl,
  volume: (row) => row.buyVolume + row.sellVolume,
  roi: (row) => (row.capital > 0 ? (row.realizedPnl + row.unrealizedPnl) / row.capital : 0),
};

/** Orders kept: past this many a cache starts over (each is a few bytes a wallet). */
const MAX_ORDERS = 64;

export interface BoardRankings {
  /** Wallet ids in board order. */
  order(info: BoardInfo, asked: AskedWindow, category: number, sort: BoardSort): readonly number[];
}

export function createBoardRankings(state: StateReader): BoardRankings {
  const orders = new Map<string, number[]>();
  // A window's sort keys of every wallet, by category: one pass over all results serves every category and sort.
  let windowKeys: { key: string; ranked: Map<number, RankKeys> } | null = null;

  function keysOf(info: BoardInfo, asked: AskedWindow, category: number): RankKeys {
    if (asked.basis === 'board') {
      const ranked = createRankKeys();
      for (const { walletId, row } of state.boardRows(category)) addRankKeys(ranked, walletId, row);
      return ranked;
    }
    const key = `${state.followRewind()}:${info.generation}:${info.block}:${asked.window.from}:${asked.window.to}:${asked.window.endsNow}`;
    if (windowKeys?.key !== key) {
      const ranked = new Map<number, RankKeys>();
      for (const { walletId, results } of state.boardResults()) {
        for (const [rowCategory, row] of sumResults(results, asked.window)) {
          let keys = ranked.get(rowCategory);
          if (!keys) ranked.set(rowCategory, (keys = createRankKeys()));
          addRankKeys(keys, walletId, row);
        }
      }
      windowKeys = { key, ranked };
    }
    return windowKeys.ranked.get(category) ?? createRankKeys();
  }

  return {
    order(info, asked, category, sort) {
      const key = `${state.followRewind()}:${info.generation}:${info.block}:${asked.window.from}:${asked.window.to}:${asked.window.endsNow}:${category}:${sort}`;
      let order = orders.get(key);
      if (order) return order;
      const {
        walletIds,
        keys: { [sort]: keys },
      } = keysOf(info, asked, category);
      const at = walletIds.map((_, i) => i);
      at.sort((a, b) => keys[b]! - keys[a]! || walletIds[a]! - walletIds[b]!);
      order = at.map((i) => walletIds[i]!);
      if (orders.size >= MAX_ORDERS) orders.clear();
      orders.set(key, order);
      return order;
    },
  };
}
