// The leaderboard's orders are kept per rollup, window, category and sort (api/board/boardRankings.ts); a rewind
// under the server opens a new state whose board can carry the same generation and block, and must not be
// answered with the old state's order.
import t from 'tap';
import { createBoardRankings } from '../../api/board/boardRankings.js';
import { askedWindow } from '../../api/board/boardWindow.js';
import { createBoardRow } from '../../engine/state/boardRecords.js';
import { GLOBAL } from '../../engine/rollup/boardCategories.js';
import type { BoardInfo } from '../../engine/state/boardTables.js';
import type { StateReader } from '../../engine/state/stateReader.js';

t.test('behavior: a rewound state is ranked anew, though its board has the same generation and block', async (t) => {
  let opened = 1;
  let rows = [
    { walletId: 1, row: { ...createBoardRow(), realizedPnl: 5 } },
    { walletId: 2, row: { ...createBoardRow(), realizedPnl: 9 } },
  ];
  const state = { followRewind: () => opened, boardRows: () => rows } as unknown as StateReader;
  const rankings = createBoardRankings(state);
  const info: BoardInfo = {
    generation: 0,
    block: 100,
    asOf: 1_800_000_000,
    metadata: '',
    rules: 2,
    wallets: 2,
    results: 2,
  };
  const lifetime = askedWindow({}, info.asOf);
  t.same(rankings.order(info, lifetime, GLOBAL, 'realizedPnl'), [2, 1]);
  rows = [
    { walletId: 1, row: { ...createBoardRow(), realizedPnl: 9 } },
    { walletId: 2, row: { ...createBoardRow(), realizedPnl: 5 } },
  ];
  t.same(rankings.order(info, lifetime, GLOBAL, 'realizedPnl'), [2, 1], 'the same state: the kept order');
  opened = 2;
  t.same(rankings.order(info, lifetime, GLOBAL, 'realizedPnl'), [1, 2], 'after a rewind: ranked again');
});
