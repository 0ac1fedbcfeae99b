// The venue's market API, page by page (`tally metadata --url`, `run --metadata-url`; replay/README.md, Market
// metadata and profiles). The first answer says how it pages (parseMarketPage): a JSON array is a page of Gamma's
// /markets, paged by `offset`, which advances by the objects received, so a server capping `limit` below ours
// loses nothing; an object with a `data` array pages by its `next_cursor`. The pages end at an empty one (not at a
// short one, for that same cap) or at a cursor page without a next cursor; and at a page whose text repeats the
// one before, since a server that ignores the paging parameters (a file served as is) would answer it forever.
// Each page is retried with backoff (fetchText); one that is not a list of market objects is refused, named by
// its URL.
import { InputError } from '../engine/inputError.js';
import { parseMarketPage, type MarketMetadata } from '../engine/offchain/marketMetadata.js';
import type { RetryPolicy, RpcRetry } from '../replay/source/retryRpc.js';
import { fetchText } from './fetchText.js';

/** Objects asked for per page: Gamma answers up to 500. */
export const PAGE_LIMIT = 500;

/** A few retries over about 8 s of backoff (0.5 + 1 + 2 + 4 s at most): an API that blinks, not one that is down. */
export const PAGE_RETRY: RetryPolicy = { retries: 4, baseMs: 500, maxMs: 4_000 };

export async function fetchMarketPages(
  url: string,
  options: {
    onRetry?: (retry: RpcRetry) => void;
    /** After each page, with the pages and distinct markets so far. */
    onPage?: (pages: number, markets: number) => void;
    signal?: AbortSignal;
  },
): Promise<MarketMetadata[]> {
  const pageUrl = new URL(url);
  if (!pageUrl.searchParams.has('limit')) pageUrl.searchParams.set('limit', String(PAGE_LIMIT));
  let offset = Number(pageUrl.searchParams.get('offset') ?? 0);
  const byCondition = new Map<string, MarketMetadata>();
  let objects = 0;
  let pages = 0;
  let previous: string | null = null;
  for (;;) {
    const name = pageUrl.href;
    const text = await fetchText(name, { retry: PAGE_RETRY, onRetry: options.onRetry, signal: options.signal });
    if (text === previous) break;
    previous = text;
    const page = parseMarketPage(text, name);
    pages++;
    objects += page.objects;
    for (const market of page.markets) byCondition.set(market.conditionId, market);
    options.onPage?.(pages, byCondition.size);
    if (page.objects === 0) break;
    if (page.nextCursor === undefined) {
      offset += page.objects;
      pageUrl.searchParams.set('offset', String(offset));
    } else if (page.nextCursor === null) {
      break;
    } else {
      pageUrl.searchParams.set('next_cursor', page.nextCursor);
    }
  }
  if (byCondition.size === 0) {
    const read = `${objects} objects on ${pages} page${pages === 1 ? '' : 's'}`;
    throw new InputError(url, 0, `holds no market object with a conditionId (0x and 64 hex): ${read}`);
  }
  return [...byCondition.values()];
}
