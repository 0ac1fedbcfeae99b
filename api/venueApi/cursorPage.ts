// A page of a newest-first list in the Data API's shapes (/trades, /activity): `offset` rows skipped, `limit` taken,
// and when more follow, the cursor of its last row (ts,block,logIndex) in X-Next-Cursor and a Link to the next page
// with the same filters, which resumes there in constant time however deep.
import { tradeCursor } from '../rows/tradeView.js';
import { venueAnswer } from './venueAnswer.js';

export interface ChainPosition {
  ts: number;
  block: number;
  logIndex: number;
}

/**
 * The page's answer from `entries` (newest first), each made a row by `row` (null: not listed) and placed on the
 * chain by `position`.
 */
export function cursorPage<E, R>(
  entries: Iterable<E>,
  row: (entry: E) => R | null,
  position: (entry: E) => ChainPosition,
  request: { path: string; query: Record<string, unknown>; offset: number; limit: number; block: number },
) {
  const rows: R[] = [];
  let skip = request.offset;
  let last: E | null = null;
  let more = false;
  for (const entry of entries) {
    const made = row(entry);
    if (made === null) continue;
    if (skip > 0) {
      skip--;
      continue;
    }
    if (rows.length === request.limit) {
      more = true;
      break;
    }
    rows.push(made);
    last = entry;
  }
  if (!more || last === null) return venueAnswer(rows, request.block);
  const cursor = tradeCursor(position(last));
  const search = new URLSearchParams(
    Object.entries(request.query).flatMap(([name, value]) =>
      value === undefined || name === 'offset' || name === 'cursor' ? [] : [[name, String(value)] as [string, string]],
    ),
  );
  search.set('cursor', cursor);
  return venueAnswer(rows, request.block, { cursor, url: `${request.path}?${search}` });
}
