// What the board routes share: the rollup they answer from (503 until the first), the category asked for, and a
// wallet's rows in a window: the stored board rows for the lifetime, sums of its market results otherwise.
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import { boardCategoryOf, GLOBAL } from '../../engine/rollup/boardCategories.js';
import { sumResults } from '../../engine/rollup/boardRow.js';
import { RESULT, RESULT_WIDTH, type BoardRow } from '../../engine/state/boardRecords.js';
import type { BoardInfo } from '../../engine/state/boardTables.js';
import { ApiError } from '../apiError.js';
import { ERROR } from '../errorTexts.js';
import { textParam } from '../query/queryParams.js';
import type { RouteContext } from '../routeContext.js';
import type { AskedWindow } from './boardWindow.js';

export function requireBoard(ctx: RouteContext): BoardInfo {
  const info = ctx.state.board();
  if (info === null) throw new ApiError(503, ERROR.boardNotBuilt);
  return info;
}

/** The board's `category` parameter. */
export const BOARD_CATEGORY_PARAM = textParam(
  '`global` (default), `Other`, or one of the nine categories (any letter case)',
);

/** The `category` parameter as a board category index: `global` when absent; any letter case. */
export function boardCategoryParam(text: string | undefined): number {
  if (text === undefined) return GLOBAL;
  const category = boardCategoryOf(text);
  if (category === null) throw new ApiError(400, ERROR.unknownCategory);
  return category;
}

/** The wallet's rows by category in the window (none for a wallet the log never named). */
export function walletBoardRows(ctx: RouteContext, wallet: string, asked: AskedWindow): Map<number, BoardRow> {
  const walletId = ctx.state.idNumber(ID_SPACE.address, wallet);
  return walletId === null ? new Map() : walletIdRows(ctx, walletId, asked);
}

/** The wallet's row in one category and the window, null when it has none. */
export function walletRowIn(
  ctx: RouteContext,
  walletId: number,
  asked: AskedWindow,
  category: number,
): BoardRow | null {
  if (asked.basis === 'board') return ctx.state.boardRow(category, walletId);
  return sumResults(ctx.state.walletResults(walletId), asked.window).get(category) ?? null;
}

function walletIdRows(ctx: RouteContext, walletId: number, asked: AskedWindow): Map<number, BoardRow> {
  if (asked.basis === 'settled') return sumResults(ctx.state.walletResults(walletId), asked.window);
  const rows = new Map<number, BoardRow>();
  const global = ctx.state.boardRow(GLOBAL, walletId);
  if (global === null) return rows;
  rows.set(GLOBAL, global);
  // A wallet's categories are those of its results; the board rows of the others do not exist.
  const results = ctx.state.walletResults(walletId);
  for (let at = 0; at < results.length; at += RESULT_WIDTH) {
    const category = results[at + RESULT.category]!;
    if (rows.has(category)) continue;
    const row = ctx.state.boardRow(category, walletId);
    if (row !== null) rows.set(category, row);
  }
  return rows;
}
