// The category and text filters of the wallet position routes (spec 4.1).
import { CATEGORIES } from '../../engine/offchain/marketMetadata.js';
import { ApiError } from '../apiError.js';
import { ERROR } from '../errorTexts.js';
import { integerParam, rowsParam, textParam } from '../query/queryParams.js';
import { PAGE_ROWS } from '../apiLimits.js';
import type { WalletPosition } from './readWalletPositions.js';

const BY_LOWER = new Map<string, string>([
  ...CATEGORIES.map((c): [string, string] => [c.toLowerCase(), c]),
  ['other', 'Other'],
]);

/** A page of a wallet's open or closed positions, filtered: the parameters both forms take. */
export const POSITION_PAGE_QUERY = {
  limit: rowsParam(PAGE_ROWS.positions),
  offset: integerParam('rows to skip', { minimum: 0, default: 0 }),
  category: textParam('one of the nine categories, or `other` for markets in none (any letter case)'),
  q: textParam("only markets whose question, or the row's outcome name, contains the text (any letter case)"),
};

/** The category a `category` parameter names ('Other' for markets in none), or null when absent. */
export function categoryParam(text: string | undefined): string | null {
  if (text === undefined) return null;
  const category = BY_LOWER.get(text.toLowerCase());
  if (!category) throw new ApiError(400, ERROR.unknownCategory);
  return category;
}

export function filterPositions(
  positions: WalletPosition[],
  category: string | null,
  text: string | undefined,
): WalletPosition[] {
  const needle = text?.toLowerCase() ?? '';
  return positions.filter((p) => {
    if (category !== null && (p.view?.category ?? 'Other') !== category) return false;
    if (needle === '') return true;
    const question = p.view?.question?.toLowerCase() ?? '';
    const outcome = p.view?.outcomes?.[p.outcomeIndex]?.toLowerCase() ?? '';
    return question.includes(needle) || outcome.includes(needle);
  });
}
