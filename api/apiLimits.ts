// Every bound the API serves under, in one place (api/README.md, Limits), and the relations between them, checked
// when the module loads: an edit that breaks one stops the server at its start, not a request in its first week.
import { assert } from '../engine/assert.js';

/** The request line (414) and the headers (431), checked before the key on every path. */
export const MAX_URL_CHARS = 16_384;
export const MAX_HEADER_BYTES = 8192;

/** Spec 8's per-key limits, what a key has unless config.json says otherwise. */
export const SPEC_PER_MINUTE = 600;
export const SPEC_IN_FLIGHT = 4;
export const SPEC_STREAMS = 2;
/**
 * The largest figures a config may set. Each key's minute is a ring of that many request times (8 bytes each), so
 * a larger figure is better written `false`.
 */
export const MAX_PER_MINUTE = 100_000;
export const MAX_IN_FLIGHT = 10_000;

/** The shared counters: keys active in the last minute, and request times in their rings' arena. */
export const DEFAULT_KEY_SLOTS = 4096;
/** Every slot's ring at the spec's minute: 19 MiB of address space, committed as keys use it. */
export const DEFAULT_ARENA_TIMES = DEFAULT_KEY_SLOTS * SPEC_PER_MINUTE;

/** Heavy requests waiting beyond the one running: past this many the next is refused with 503 (retry in 1 s). */
export const HEAVY_QUEUE = 32;

/** Above this many positions a wallet's open and closed forms answer tooLarge (spec 4.1). */
export const MAX_POSITIONS = 50_000;

/** The fills feed: markets a request may name, its window, and its rows (all, or a page of the default). */
export const MAX_FEED_MARKETS = 100;
export const MAX_FEED_WINDOW = 604_800;
export const MAX_FEED_LIMIT = 50_000;
export const DEFAULT_FEED_LIMIT = 10_000;

/** Wallets one request may name: trade counts, profiles. */
export const MAX_COUNTED_WALLETS = 200;
export const MAX_PROFILE_WALLETS = 300;

/** Markets a search ranks before it pages. */
export const MAX_RANKED = 1000;

/** The rows a page may ask for (`limit`, out of range is clamped) and what it gets when it asks for none. */
export const PAGE_ROWS = {
  positions: { max: 2500, fallback: 100 },
  marketTrades: { max: 1000, fallback: 100 },
  marketTraders: { max: 1000, fallback: 100 },
  cryptoStrikes: { max: 1000, fallback: 100 },
  walletTrades: { max: 500, fallback: 100, searchFallback: 300 },
  leaderboard: { max: 500, fallback: 100 },
  eventHeat: { max: 500, fallback: 50 },
  topTraders: { max: 100, fallback: 20 },
  marketSearch: { max: 100, fallback: 20 },
  holderLines: { max: 50, fallback: 10 },
} as const;

/** Caches that start over past their size (cheaper than tracking recency on every hit). */
export const MAX_CACHED_TOKENS = 400_000;
export const MAX_CACHED_MARKETS = 100_000;
export const MAX_REMEMBERED_KEYS = 10_000;

/** The longest list item of each kind in a query: a wallet (0x plus 40 hex) or a condition id, and its comma. */
const WALLET_ITEM_CHARS = 43;
const CONDITION_ITEM_CHARS = 67;
/** Room in a URL for its path and the other parameters beside its longest list. */
const URL_ROOM = 512;

assert(
  Math.max(MAX_COUNTED_WALLETS, MAX_PROFILE_WALLETS) * WALLET_ITEM_CHARS + URL_ROOM <= MAX_URL_CHARS,
  'the URL limit admits the longest wallet list a route takes',
);
assert(
  MAX_FEED_MARKETS * CONDITION_ITEM_CHARS + URL_ROOM <= MAX_URL_CHARS,
  "the URL limit admits the fills feed's longest market list",
);
assert(
  SPEC_PER_MINUTE <= MAX_PER_MINUTE && SPEC_IN_FLIGHT <= MAX_IN_FLIGHT && SPEC_STREAMS <= SPEC_IN_FLIGHT,
  "the spec's key limits are ones a config may set, its streams among its requests in flight",
);
assert(MAX_PER_MINUTE <= DEFAULT_ARENA_TIMES, "the arena holds a key's ring at the largest minute a config may set");
assert(MAX_REMEMBERED_KEYS >= DEFAULT_KEY_SLOTS, 'the key check remembers every key the counters can hold');
assert(HEAVY_QUEUE >= SPEC_IN_FLIGHT, "a spec key's requests in flight, all heavy, all wait rather than be refused");
assert(
  MAX_CACHED_TOKENS >= 2 * MAX_CACHED_MARKETS,
  'the token cache holds both outcomes of every market the market cache holds',
);
assert(DEFAULT_FEED_LIMIT >= 1 && DEFAULT_FEED_LIMIT <= MAX_FEED_LIMIT, "the feed's default rows are rows it may send");
for (const rows of Object.values(PAGE_ROWS)) {
  assert(rows.fallback >= 1 && rows.fallback <= rows.max, "a page's default rows are rows it may ask for");
}
assert(PAGE_ROWS.positions.max <= MAX_POSITIONS, 'a page of positions is within what a wallet answers');
