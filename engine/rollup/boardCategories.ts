// The board's categories (spec 2.5 `category`): `global` (every market), the nine, and `Other` (markets in none
// of them, and tokens no market explains). Stored by index; answered by name.
import { CATEGORIES } from '../offchain/marketMetadata.js';

export const BOARD_CATEGORIES = ['global', ...CATEGORIES, 'Other'] as const;
export type BoardCategory = (typeof BOARD_CATEGORIES)[number];

export const GLOBAL = 0;
export const OTHER = BOARD_CATEGORIES.length - 1;

const BY_LOWER = new Map<string, number>(BOARD_CATEGORIES.map((name, index) => [name.toLowerCase(), index]));

/** A market's category index from its metadata's category (null: Other). */
export function marketCategory(category: string | null): number {
  if (category === null) return OTHER;
  const index = BY_LOWER.get(category.toLowerCase());
  return index === undefined || index === GLOBAL ? OTHER : index;
}

/** A category asked for in any letter case, as its index; null when it is none of the board's. */
export function boardCategoryOf(text: string): number | null {
  return BY_LOWER.get(text.toLowerCase()) ?? null;
}
