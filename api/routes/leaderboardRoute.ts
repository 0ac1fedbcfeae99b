// GET /v1/leaderboard (docs/design.md 5): the board in a category (default `global`) and window (period or from/to, as
// stats), sorted by totalPnl (default), realizedPnl, volume or roi, best first; `limit` 1-500 (100), `offset`.
import { AssertionFailure } from '../../engine/assert.js';
import { LeaderboardAnswer } from '../schemas/answerSchemas.js';
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import { BOARD_CATEGORIES } from '../../engine/rollup/boardCategories.js';
import { BOARD_SORTS, createBoardRankings } from '../board/boardRankings.js';
import { boardRowView } from '../board/boardRowView.js';
import { askedWindow, sumsResults, WINDOW_QUERY } from '../board/boardWindow.js';
import { BOARD_CATEGORY_PARAM, boardCategoryParam, requireBoard, walletRowIn } from '../board/readBoard.js';
import { choiceParam, integerParam, rowsParam } from '../query/queryParams.js';
import { PAGE_ROWS } from '../apiLimits.js';
import { ERROR_DOCS } from '../errorTexts.js';
import { defineRoute } from './route.js';

export const leaderboardRoute = defineRoute({
  pattern: '/v1/leaderboard',
  operationId: 'getLeaderboard',
  errors: {
    503: `${ERROR_DOCS.boardNotBuilt[503]}; or ${ERROR_DOCS.heavyBusy[503]}`,
  },
  tag: 'Leaderboard',
  summary: "Every wallet's leaderboard row in a category and window, best first",
  answer: LeaderboardAnswer,
  query: {
    ...WINDOW_QUERY,
    category: BOARD_CATEGORY_PARAM,
    sort: choiceParam('`totalPnl` (default), `realizedPnl`, `volume` or `roi`', BOARD_SORTS, 'totalPnl'),
    limit: rowsParam(PAGE_ROWS.leaderboard),
    offset: integerParam('rows to skip', { minimum: 0, default: 0 }),
  },
  // A window other than the lifetime sums every wallet's market results: the heavy-work thread reads it.
  heavy: sumsResults,
  open: (ctx) => ({ ctx, rankings: createBoardRankings(ctx.state) }),
  handle({ ctx, rankings }, request) {
    const info = requireBoard(ctx);
    const asked = askedWindow(request.query, info.asOf);
    const category = boardCategoryParam(request.query.category);
    const { sort, limit, offset } = request.query;
    const order = rankings.order(info, asked, category, sort);
    const name = BOARD_CATEGORIES[category]!;
    const rows = order.slice(offset, offset + limit).map((walletId) => {
      const row = walletRowIn(ctx, walletId, asked, category);
      if (!row) throw new AssertionFailure(`board: wallet ${walletId} is ranked in category ${name} without a row`);
      return boardRowView(ctx, ctx.state.idText(ID_SPACE.address, walletId), name, info.asOf, row);
    });
    return {
      block: info.block,
      asOf: info.asOf,
      period: asked.period,
      category: name,
      sort,
      from: asked.from,
      to: asked.to,
      basis: asked.basis,
      total: order.length,
      offset,
      rows,
      next: offset + limit < order.length ? offset + limit : null,
    };
  },
});
