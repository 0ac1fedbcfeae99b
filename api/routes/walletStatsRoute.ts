// GET /v1/wallets/{wallet}/stats (spec 4.3): the wallet's leaderboard row in one category (default `global`) for
// the lifetime (the board row, `basis: board`) or a window summed from its market results (`basis: settled`).
// Every figure is as of the rollup's block; a wallet with nothing in the window gets a row of zeros.
import { WalletStatsAnswer } from '../schemas/answerSchemas.js';
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import { BOARD_CATEGORIES } from '../../engine/rollup/boardCategories.js';
import { createBoardRow } from '../../engine/state/boardRecords.js';
import { boardRowView } from '../board/boardRowView.js';
import { askedWindow, WINDOW_QUERY } from '../board/boardWindow.js';
import { BOARD_CATEGORY_PARAM, boardCategoryParam, requireBoard, walletRowIn } from '../board/readBoard.js';
import { walletParam } from '../query/readQuery.js';
import { ERROR_DOCS } from '../errorTexts.js';
import { defineRoute } from './route.js';

export const walletStatsRoute = defineRoute({
  pattern: '/v1/wallets/:wallet/stats',
  operationId: 'getWalletStats',
  errors: ERROR_DOCS.boardNotBuilt,
  tag: 'Wallets',
  summary: "A wallet's leaderboard row in a category, for the lifetime or a window",
  answer: WalletStatsAnswer,
  query: { ...WINDOW_QUERY, category: BOARD_CATEGORY_PARAM },
  open: (ctx) => ctx,
  handle: (ctx, request) => {
    const wallet = walletParam(request);
    const info = requireBoard(ctx);
    const asked = askedWindow(request.query, info.asOf);
    const category = boardCategoryParam(request.query.category);
    const walletId = ctx.state.idNumber(ID_SPACE.address, wallet);
    const row = walletId === null ? null : walletRowIn(ctx, walletId, asked, category);
    const name = BOARD_CATEGORIES[category]!;
    return {
      block: info.block,
      asOf: info.asOf,
      wallet,
      period: asked.period,
      category: name,
      from: asked.from,
      to: asked.to,
      basis: asked.basis,
      row: boardRowView(ctx, wallet, name, info.asOf, row ?? createBoardRow()),
    };
  },
});
