// The spec's error texts (spec 4 and 7, api/README.md), in one place.
import { MAX_FEED_WINDOW, MAX_HEADER_BYTES, MAX_URL_CHARS } from './apiLimits.js';

export const ERROR = {
  unauthorized: 'unknown or revoked API key',
  notFound: 'not found',
  badWallet: 'wallet must be 0x plus 40 hex',
  badConditionId: 'conditionId must be 0x plus 64 hex',
  methodNotAllowed: 'only GET is supported',
  bodyNotAccepted: 'request bodies are not accepted',
  urlTooLong: `the URL is too long (at most ${MAX_URL_CHARS} characters)`,
  headersTooLarge: `the request headers are too large (at most ${MAX_HEADER_BYTES} bytes)`,
  internal: 'internal error',
  marketNotIndexed: 'market not indexed',
  eventNotIndexed: 'event not indexed',
  badWalletList: 'wallets: give 0x addresses, comma separated',
  profilesOff: 'wallet profiles are off',
  noTagsRun: 'no wallet-tags run yet',
  fillsWindow: `the window is at most ${MAX_FEED_WINDOW} seconds (${MAX_FEED_WINDOW / 86_400} days)`,
  tradesOff: 'trades are off',
  badPeriod: 'period must be 1d, 7d, 30d, 90d, 1y or all (or give from and to)',
  boardNotBuilt: 'the leaderboard is not built yet',
  unknownCategory: 'unknown category',
  badWindow: 'to must be after from',
  badMarks: 'marks must be two prices 0 to 1 by outcome index: <price0>,<price1>',
  badTokenMarks: "marks must be <tokenId>:<price>,... with the market's token ids and prices 0 to 1",
  badHolderPrices: "prices must be <tokenId>:<price>,... with the market's token ids and prices 0 to 1",
  badStrikeAsset: 'asset must be BTC, ETH, SOL or XRP',
  badSearch: 'q must hold text to find, 2 to 100 characters',
  heavyBusy:
    'busy with other heavy requests (windowed leaderboards, fills pages, sorted activity, filtered trades); retry in 1 s',
} as const;

/**
 * Spec 7's 429 form, for a key over its requests a minute (600 unless config.json sets the key's limit); the
 * OpenAPI document writes `N` for the seconds.
 */
export function rateLimitError(perMinute: number, retryAfterSeconds: number | 'N'): string {
  return `rate limit: ${perMinute} requests a minute; retry in ${retryAfterSeconds} s`;
}

/** The same form for a request over the key's concurrency (spec 8): refused before it counts against the minute. */
export function inFlightError(requests: number, streams: number): string {
  return `rate limit: at most ${requests} requests (${streams} streams) at once per key; retry in 1 s`;
}

/** 503 for a key new to a server already counting as many keys as it has room for (api/apiLimits.ts). */
export function limitsTableFullError(retryAfterSeconds: number | 'N'): string {
  return `too many keys active in the last minute to count another; retry in ${retryAfterSeconds} s`;
}

/**
 * The 401's WWW-Authenticate challenge (RFC 6750). The body's text is the spec's for every 401 (section 7:
 * "No key, or unknown or revoked key"); the challenge tells a missing key from a refused one.
 */
export function bearerChallenge(keyGiven: boolean): string {
  return keyGiven
    ? 'Bearer realm="tally", error="invalid_token", error_description="unknown or revoked API key"'
    : 'Bearer realm="tally", error_description="missing API key"';
}

/** The OpenAPI document's texts of the errors several routes answer, by status. */
export const ERROR_DOCS = {
  notIndexed: { 404: 'market not indexed: the log never prepared this condition' },
  boardNotBuilt: { 503: `${ERROR.boardNotBuilt}: no rollup has run yet (one runs after each fold)` },
  tradesOff: { 503: 'trades are off: the state was folded with the trade store off (config.json "trades": false)' },
  heavyBusy: {
    503: `${ERROR.heavyBusy}: more than 32 heavy requests wait for the thread that reads them (Retry-After: 1)`,
  },
} as const;
