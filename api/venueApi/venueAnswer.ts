// A Data API shape's answer: the bare body its clients expect, with the block it is as of in `X-Tally-Block` and,
// for a list that goes on, the cursor of its next page in `X-Next-Cursor` and a `Link: <...>; rel="next"`
// (RFC 8288) to it. Both are cached with the body: one URL, one block, one answer.
import { HeadedAnswer } from '../transport/headedAnswer.js';

export const BLOCK_HEADER = 'x-tally-block';
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

export function venueAnswer<T>(body: T, block: number, next: { cursor: string; url: string } | null = null) {
  const headers: Record<string, string> = { [BLOCK_HEADER]: String(block) };
  if (next !== null) {
    headers[NEXT_CURSOR_HEADER] = next.cursor;
    headers.link = `<${next.url}>; rel="next"`;
  }
  return new HeadedAnswer<T>(body, headers);
}
