// GET /v1/wallets/{wallet}/categories (spec 4.4): one leaderboard row per category the wallet traded in the
// window (`Other` for markets in none of the nine), biggest realized PnL first (then in category order).
import { WalletCategoriesAnswer } from '../schemas/answerSchemas.js';
import { BOARD_CATEGORIES, GLOBAL } from '../../engine/rollup/boardCategories.js';
import { boardRowView } from '../board/boardRowView.js';
import { askedWindow, WINDOW_QUERY } from '../board/boardWindow.js';
import { requireBoard, walletBoardRows } from '../board/readBoard.js';
import { walletParam } from '../query/readQuery.js';
import { ERROR_DOCS } from '../errorTexts.js';
import { defineRoute } from './route.js';

export const walletCategoriesRoute = defineRoute({
  pattern: '/v1/wallets/:wallet/categories',
  operationId: 'getWalletCategories',
  errors: ERROR_DOCS.boardNotBuilt,
  tag: 'Wallets',
  summary: "A wallet's leaderboard rows, one per category it traded in the window, biggest realized PnL first",
  answer: WalletCategoriesAnswer,
  query: WINDOW_QUERY,
  open: (ctx) => ctx,
  handle: (ctx, request) => {
    const wallet = walletParam(request);
    const info = requireBoard(ctx);
    const asked = askedWindow(request.query, info.asOf);
    const rows = [...walletBoardRows(ctx, wallet, asked)]
      .filter(([category]) => category !== GLOBAL)
      .sort(([a, x], [b, y]) => y.realizedPnl - x.realizedPnl || a - b)
      .map(([category, row]) => boardRowView(ctx, wallet, BOARD_CATEGORIES[category]!, info.asOf, row));
    return {
      block: info.block,
      asOf: info.asOf,
      wallet,
      period: asked.period,
      category: BOARD_CATEGORIES[GLOBAL],
      from: asked.from,
      to: asked.to,
      basis: asked.basis,
      rows,
    };
  },
});
