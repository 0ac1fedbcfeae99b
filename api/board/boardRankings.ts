// The leaderboard's order (DESIGN.md 5): every wallet with a row in the category and window, best first by the
// sort asked for, ties in wallet id order (ids number wallets in first-seen log order, so the order is a pure
// function of the log). Worked out once per rollup, window, category and sort, then pages are slices of it.
import { sumResults, type BoardRow } from '../../engine/rollup/boardRow.js';
import type { BoardInfo } from '../../engine/state/boardTables.js';
import type { StateReader } from '../../engine/state/stateReader.js';
import type { AskedWindow } from './boardWindow.js';

export const BOARD_SORTS = ['totalPnl', 'realizedPnl', 'volume', 'roi'] as const;
export type BoardSort = (typeof BOARD_SORTS)[number];

interface Ranked { walletId: number; key: number }

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
  // A window's rows of every wallet, by category: one pass over all results serves every category and sort.
  let windowRows: { key: string; rows: Map<number, Array<{ walletId: number; row: BoardRow }>> } | null = null;

  function rowsOf(info: BoardInfo, asked: AskedWindow, category: number): Iterable<{ walletId: number; row: BoardRow }> {
    if (asked.basis === 'board') return state.boardRows(category);
    const key = `${info.generation}:${info.block}:${asked.window.from}:${asked.window.to}:${asked.window.endsNow}`;
    if (windowRows?.key !== key) {
      const rows = new Map<number, Array<{ walletId: number; row: BoardRow }>>();
      for (const { walletId, results } of state.boardResults()) {
        for (const [rowCategory, row] of sumResults(results, asked.window)) {
          let list = rows.get(rowCategory);
          if (!list) rows.set(rowCategory, (list = []));
          list.push({ walletId, row });
        }
      }
      windowRows = { key, rows };
    }
    return windowRows.rows.get(category) ?? [];
  }

  return {
    order(info, asked, category, sort) {
      const key = `${info.generation}:${info.block}:${asked.window.from}:${asked.window.to}:${asked.window.endsNow}:${category}:${sort}`;
      let order = orders.get(key);
      if (order) return order;
      const ranked: Ranked[] = [];
      for (const { walletId, row } of rowsOf(info, asked, category)) ranked.push({ walletId, key: sortKey[sort](row) });
      ranked.sort((a, b) => b.key - a.key || a.walletId - b.walletId);
      order = ranked.map((entry) => entry.walletId);
      if (orders.size >= MAX_ORDERS) orders.clear();
      orders.set(key, order);
      return order;
    },
  };
}
