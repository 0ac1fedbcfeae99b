// GET /v1/leaderboard (docs/design.md 5): the board in a category (default `global`) and window (period or from/to, as
// stats), sorted by totalPnl (default), realizedPnl, volume or roi, best first; `limit` 1-500 (100), `offset`.
import { AssertionFailure } from '../../engine/assert.js';
import type { Static } from 'typebox';
import type { LeaderboardAnswer } from '../schemas/answerSchemas.js';
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import { BOARD_CATEGORIES } from '../../engine/rollup/boardCategories.js';
import type { BoardRankings, BoardSort } from '../board/boardRankings.js';
import { boardRowView } from '../board/boardRowView.js';
import { askedWindow } from '../board/boardWindow.js';
import { boardCategoryParam, requireBoard, walletRowIn } from '../board/readBoard.js';
import type { RouteRequest } from '../query/routeRequest.js';
import { clampedParam } from '../query/readQuery.js';
import type { RouteContext } from '../routeContext.js';

export function createLeaderboardRoute(ctx: RouteContext, rankings: BoardRankings) {
  return (request: RouteRequest): Static<typeof LeaderboardAnswer> => {
    const info = requireBoard(ctx);
    const asked = askedWindow(request.query, info.asOf);
    const category = boardCategoryParam(request.query);
    const sort = (request.query.sort as BoardSort | undefined) ?? 'totalPnl';
    const limit = clampedParam(request.query, 'limit', 1, 500, 100);
    const offset = (request.query.offset as number | undefined) ?? 0;
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
  };
}
