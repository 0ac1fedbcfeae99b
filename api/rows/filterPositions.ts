// The category and text filters of the wallet position routes (spec 4.1).
import { CATEGORIES } from '../../engine/offchain/marketMetadata.js';
import { ApiError } from '../apiError.js';
import { ERROR } from '../errorTexts.js';
import type { QueryValues } from '../query/queryParams.js';
import { textOf } from '../query/readQuery.js';
import type { WalletPosition } from './readWalletPositions.js';

const BY_LOWER = new Map<string, string>([
  ...CATEGORIES.map((c): [string, string] => [c.toLowerCase(), c]),
  ['other', 'Other'],
]);

/** The category a `category` parameter names ('Other' for markets in none), or null when absent. */
export function categoryParam(query: QueryValues): string | null {
  const text = textOf(query, 'category');
  if (text === null) return null;
  const category = BY_LOWER.get(text.toLowerCase());
  if (!category) throw new ApiError(400, ERROR.unknownCategory);
  return category;
}

export function filterPositions(
  positions: WalletPosition[],
  category: string | null,
  text: string | null,
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
